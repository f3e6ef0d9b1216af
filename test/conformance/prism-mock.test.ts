// The conformance run against Stoplight Prism's mock of openapi/plants.yaml (a server made of
// the document alone): the run completes within its bounds, and its report says where the mock
// differs from what the document promises (test-results/conformance-prism-mock.txt).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../../src/conformance/options.ts";
import { textReport } from "../../src/conformance/report.ts";
import { runConformance } from "../../src/conformance/run.ts";
import { TOKEN } from "../helpers/app.ts";
import { TEST_RESULTS } from "../helpers/ran-marker.ts";
import { REPO_ROOT } from "../helpers/server-process.ts";

const PRISM = createRequire(import.meta.url).resolve("@stoplight/prism-cli/dist/index.js");

describe("conformance of Prism's mock", () => {
  let prism: ChildProcess;
  let url = "";

  beforeAll(async () => {
    prism = spawn(
      process.execPath,
      [PRISM, "mock", "openapi/plants.yaml", "--host", "127.0.0.1", "--port", "0"],
      { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        const listening = /Prism is listening on (http:\/\/[\d.]+:\d+)/.exec(output);
        if (listening?.[1] !== undefined) resolve(listening[1]);
      };
      prism.stdout?.on("data", onData);
      prism.stderr?.on("data", onData);
      prism.once("exit", (code) => reject(new Error(`prism exited (${code}): ${output}`)));
    });
  }, 60_000);

  afterAll(async () => {
    if (prism !== undefined && prism.exitCode === null) {
      const exited = new Promise((resolve) => prism.once("exit", resolve));
      prism.kill("SIGTERM");
      await exited;
    }
  });

  it("when the run checks the mock read-only, then it completes within its bounds and reports what the mock gets wrong", async () => {
    const run = await runConformance({
      ...DEFAULT_OPTIONS,
      baseUrl: url,
      token: TOKEN,
      document: { file: join(REPO_ROOT, "openapi/plants.yaml") },
    });

    // What the mock gets wrong, for reading after the run (a dot reporter prints no output).
    mkdirSync(TEST_RESULTS, { recursive: true });
    writeFileSync(
      join(TEST_RESULTS, "conformance-prism-mock.txt"),
      textReport(run, (target) => `${url}${target}`),
    );
    expect(run.checks.length).toBeGreaterThan(0);
    expect(run.requests).toBeLessThanOrEqual(DEFAULT_OPTIONS.maxRequests);
    expect(run.writes).toBe(0);
    for (const check of run.checks) expect(check.answer.status, check.name).toBeGreaterThan(0);
  });
});
