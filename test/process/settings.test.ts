// `npm start -- --help` and `--print-config` on the real entry point: every setting with its
// default and current value, secrets masked, exit 0; --print-config checks values first.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "../../src/config/config.ts";
import { ENTRY_ARGS, REPO_ROOT } from "../helpers/server-process.ts";

function run(
  args: string[],
  env: Record<string, string>,
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...ENTRY_ARGS, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env["PATH"] ?? "", ...env },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const SECRETS = {
  DATABASE_URL: "postgres://app:hunter2-secret@db.internal:5432/plants",
  PLANTSTORE_TOKENS: "token-aaaaaaaaaaaaaaaa",
  PLANTSTORE_METRICS_TOKEN: "metrics-token-0123456789",
};

describe("settings on the command line", () => {
  it("when started with --help, then it prints every setting with default and current value, secrets masked, and exits 0 without starting", () => {
    const { status, stdout, stderr } = run(["--help"], { ...SECRETS, PORT: "9999" });
    expect(status, stderr).toBe(0);
    expect(stdout).toMatch(/^Usage: npm start/);
    for (const name of Object.keys(SETTINGS)) expect(stdout).toMatch(new RegExp(`^${name} `, "m"));
    expect(stdout).toMatch(/^PORT +8080 +9999 /m);
    expect(stdout).toMatch(/^PLANTSTORE_SHUTDOWN_TIMEOUT_MS +10000 +10000 \(default\)/m);
    expect(stdout).toContain("postgres://app:***@db.internal:5432/plants");
    for (const secret of ["hunter2-secret", "token-aaaa", "metrics-token-0123"]) {
      expect(stdout + stderr).not.toContain(secret);
    }
  });

  it("when --help is given with an invalid value, then it still prints the table and exits 0", () => {
    const { status, stdout } = run(["--help"], { PORT: "eighty" });
    expect(status).toBe(0);
    expect(stdout).toMatch(/^PORT +8080 +eighty /m);
  });

  it("when started with --print-config and valid settings, then it prints the table and exits 0 without starting", () => {
    const { status, stdout, stderr } = run(["--print-config"], SECRETS);
    expect(status, stderr).toBe(0);
    expect(stdout.trimEnd().split("\n")).toHaveLength(Object.keys(SETTINGS).length + 1);
    expect(stdout + stderr).not.toContain("hunter2-secret");
  });

  it("when started with --print-config and an invalid setting, then it exits 1 with the one-line reason", () => {
    const { status, stderr } = run(["--print-config"], {
      PLANTSTORE_CORS_ORIGINS: "not an origin",
    });
    expect(status).toBe(1);
    expect(stderr).toMatch(/^plantstore: invalid configuration: PLANTSTORE_CORS_ORIGINS must be/);
  });

  it("when started with an unknown option, then it exits 1 and points at --help", () => {
    const { status, stderr } = run(["--verbose"], {});
    expect(status).toBe(1);
    expect(stderr).toBe("plantstore: unknown option --verbose; see --help\n");
  });
});
