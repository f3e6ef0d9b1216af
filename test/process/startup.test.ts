// Start-up failures of the real entry point: one clear line on stderr and a non-zero exit.
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ENTRY_ARGS, REPO_ROOT } from "../helpers/server-process.ts";

const dir = mkdtempSync(join(tmpdir(), "plantstore-startup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(
  env: Record<string, string>,
  args: readonly string[] = ENTRY_ARGS,
): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, args, {
    cwd: dir,
    env: {
      PATH: process.env["PATH"] ?? "",
      PORT: "0",
      PLANTSTORE_TOKENS: "startup-token-0123456789",
      DATABASE_URL: `sqlite:${join(dir, "plants.db")}`,
      ...env,
    },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe("start-up refuses bad settings", () => {
  it.each([
    [{ PORT: "eighty" }, /^plantstore: invalid configuration: PORT must be an integer/],
    [{ LOG_LEVEL: "loud" }, /^plantstore: invalid configuration: LOG_LEVEL must be one of/],
    [
      { DATABASE_URL: "mysql://127.0.0.1/plants" },
      /^plantstore: invalid configuration: DATABASE_URL must be sqlite:PATH or postgres:.*"mysql:"/,
    ],
    [{ PLANTSTORE_TOKENS: "short" }, /^plantstore: invalid configuration: PLANTSTORE_TOKENS/],
    [
      { PLANTSTORE_JWT_ISSUER: "https://idp.example/", PLANTSTORE_JWT_JWKS_FILE: "/k.json" },
      /^plantstore: invalid configuration: PLANTSTORE_JWT_AUDIENCE must be set/,
    ],
    [
      {
        PLANTSTORE_JWT_ISSUER: "https://idp.example/",
        PLANTSTORE_JWT_AUDIENCE: "plantstore",
        PLANTSTORE_JWT_JWKS_FILE: "/nonexistent/jwks.json",
      },
      /^plantstore: cannot set up authentication: PLANTSTORE_JWT_JWKS_FILE \/nonexistent\/jwks\.json is not a readable JWKS: /,
    ],
  ])("when started with %j, then it exits 1 with one line naming the setting", (env, line) => {
    const { status, stderr } = start(env);
    expect(status).toBe(1);
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(line);
  });

  it("when the database path cannot be created, then it exits 1 with one line saying so", () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "not a folder");
    const { status, stderr } = start({ DATABASE_URL: `sqlite:${join(file, "plants.db")}` });
    expect(status).toBe(1);
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^plantstore: cannot open the database at .*a-file\/plants\.db: /);
  });

  it("when the port is taken, then it exits 1 with one line saying so", async () => {
    const { createServer } = await import("node:net");
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const address = blocker.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    const { status, stderr } = start({
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, "busy.db")}`,
    });
    blocker.close();
    expect(status).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`^plantstore: cannot listen on 127.0.0.1:${port}: .*EADDRINUSE`),
    );
  });
});

describe("start-up refuses a build made from another document", () => {
  it("when openapi/plants.yaml has changed since the build, then it exits 1 with one line saying to build again", () => {
    // The built server with its compiled API and the YAML beside it, as in a checkout.
    const root = join(dir, "checkout");
    for (const part of ["dist/server", "dist/api", "openapi"]) {
      cpSync(join(REPO_ROOT, part), join(root, part), { recursive: true });
    }
    symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"));
    appendFileSync(join(root, "openapi/plants.yaml"), "# edited after the build\n");
    const result = start({ DATABASE_URL: `sqlite:${join(dir, "edited.db")}` }, [
      join(root, "dist/server/main.mjs"),
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^plantstore: openapi\/plants\.yaml has changed since the server was built: run `npm run build:server`/,
    );
  });
});
