// The conformance run (npm run conformance) against the real server of each engine, where every
// check passes, and against a broken proxy in front of it, where each fault is found and named.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type ConformanceOptions, DEFAULT_OPTIONS } from "../../src/conformance/options.ts";
import { runConformance } from "../../src/conformance/run.ts";
import { documentPath } from "../../src/openapi/document.ts";
import { TOKEN } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { failures, useServerOn } from "../helpers/conformance-run.ts";
import { sqliteEngine, storeEngines } from "../helpers/stores.ts";

const options = (baseUrl: string, more: Partial<ConformanceOptions> = {}): ConformanceOptions => ({
  ...DEFAULT_OPTIONS,
  baseUrl,
  token: TOKEN,
  ...more,
});

const WEBHOOK_READS = ["listWebhookEndpoints", "getWebhookEndpoint", "listWebhookDeliveries"];

describe.each(storeEngines)("conformance of a healthy server ($name)", (engine) => {
  const { database, url } = useServerOn(engine);

  it("when the run is fresh and may write, then every example, probe and id check passes, valid writes stay in --id-range, and what it created is gone", async () => {
    const run = await runConformance(
      options(url(), { allowWrites: true, fresh: true, maxWrites: 300 }),
    );

    expect(failures(run)).toEqual([]);
    expect(run.checks.some((check) => check.name.startsWith("example "))).toBe(true);
    expect(run.checks.some((check) => check.name.startsWith("create id"))).toBe(true);
    expect(run.checks.some((check) => check.name.startsWith("stored data: PATCH"))).toBe(true);
    const validWrites = run.checks.filter(
      (check) =>
        (check.name === "probe (valid)" || check.name.startsWith("stored data: ")) &&
        check.request.method !== "GET",
    );
    const { from, to } = DEFAULT_OPTIONS.idRange;
    const inRange = (id: bigint) => id >= from && id <= to;
    for (const operationId of ["createPlant", "updatePlant", "deletePlant"]) {
      const sent = validWrites.filter((check) => check.operationId === operationId);
      expect(sent.length, operationId).toBeGreaterThan(0);
      for (const { request } of sent) {
        const id = BigInt(
          /"id":(\d+)/.exec(request.body ?? "")?.[1] ??
            /\/plants\/(\d+)/.exec(request.target)?.[1] ??
            -1,
        );
        expect(inRange(id), `${request.method} ${request.target}`).toBe(true);
      }
    }
    expect(run.notes.join("\n")).toContain("createWebhookEndpoint: no valid probes");
    expect(run.requests).toBeLessThanOrEqual(DEFAULT_OPTIONS.maxRequests);
    const left = await database().store.resources.plants.list({
      after: from - 1n,
      limit: 10,
      maxTextBytes: 1e6,
    });
    expect(left.rows.filter((plant) => plant.id <= to)).toEqual([]);
  });

  it("when the run is read-only, then it sends no write and every check passes", async () => {
    const run = await runConformance(options(url()));

    expect(failures(run)).toEqual([]);
    expect(run.writes).toBe(0);
    expect(run.checks.every((check) => ["GET", "HEAD"].includes(check.request.method))).toBe(true);
  });
});

describe("conformance within its bounds", () => {
  const { url } = useServerOn(sqliteEngine);

  it("when --max-requests is small, then the run sends that many and says where it stopped", async () => {
    const run = await runConformance(options(url(), { maxRequests: 7 }));

    expect(run.requests).toBe(7);
    expect(run.notes).toContain("a step stopped early: --max-requests reached");
    expect(failures(run)).toEqual([]);
  });
});

describe("conformance against the YAML itself (--document)", () => {
  const { url } = useServerOn(sqliteEngine);

  it("when the server has no metrics token, then its open /metrics passes, as its published document says", async () => {
    const run = await runConformance(
      options(url(), {
        document: { file: fileURLToPath(documentPath) },
        operations: ["getMetrics", "getHealth"],
      }),
    );

    expect(failures(run)).toEqual([]);
    const noToken = run.checks.find((c) => c.operationId === "getMetrics" && c.name === "no token");
    expect(noToken?.answer.status).toBe(200);
    expect(run.notes.join("\n")).toContain(
      "getMetrics is served open, as the deployment's /openapi.json says (metricsToken not configured)",
    );
  });
});

describe("conformance of scopes", () => {
  const { database, url } = useServerOn(sqliteEngine);

  it("when a token without the webhook scope is given, then the webhook reads answer 403 and pass", async () => {
    const created = await runCli(database().url, [
      "tokens",
      "create",
      "--name",
      "plants-only",
      "--scopes",
      "plants:read",
    ]);
    expect(created.code, created.stderr).toBe(0);

    const run = await runConformance(
      options(url(), { tokenWithoutScope: created.stdout.trim(), operations: WEBHOOK_READS }),
    );

    expect(failures(run)).toEqual([]);
    const scoped = run.checks.filter((check) => check.name === "token without the scope");
    expect(scoped.map((check) => check.answer.status)).toEqual([403, 403, 403]);
  });
});
