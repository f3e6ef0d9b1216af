// The conformance run against Stoplight Prism's mock of openapi/plants.yaml (a server made of
// the document alone): the run completes within its bounds, and its report says where the mock
// differs from what the document promises (test-results/conformance-prism-mock.txt).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../../src/conformance/options.ts";
import { textReport } from "../../src/conformance/report.ts";
import { runConformance } from "../../src/conformance/run.ts";
import { TOKEN } from "../helpers/app.ts";
import { type PrismProcess, startPrism } from "../helpers/prism.ts";
import { TEST_RESULTS } from "../helpers/ran-marker.ts";
import { REPO_ROOT } from "../helpers/server-process.ts";

describe("conformance of Prism's mock", () => {
  let prism: PrismProcess | undefined;

  beforeAll(async () => {
    prism = await startPrism(["mock", "openapi/plants.yaml", "--host", "127.0.0.1", "--port", "0"]);
  }, 60_000);

  afterAll(async () => {
    await prism?.stop();
  });

  it("when the run checks the mock read-only, then it completes within its bounds and reports what the mock gets wrong", async () => {
    const url = prism?.url ?? "";
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
