// The conformance run (npm run conformance) against the real server of each engine, where every
// check passes, and against a broken proxy in front of it, where each fault is found and named.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConformanceOptions, DEFAULT_OPTIONS } from "../../src/conformance/options.ts";
import type { RunResult } from "../../src/conformance/results.ts";
import { runConformance } from "../../src/conformance/run.ts";
import { TOKEN } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { type ServerProcess, startServer } from "../helpers/server-process.ts";
import { type StoreEngine, sqliteEngine, storeEngines, useTestStore } from "../helpers/stores.ts";

const options = (baseUrl: string, more: Partial<ConformanceOptions> = {}): ConformanceOptions => ({
  ...DEFAULT_OPTIONS,
  baseUrl,
  token: TOKEN,
  ...more,
});

const failures = (run: RunResult) =>
  run.checks
    .filter((check) => check.broken.length > 0)
    .map((check) => `${check.operationId} ${check.name}: ${check.broken.join("; ")}`);

/** A spawned server on a store of its own, for the tests of one describe. */
function useServerOn(engine: StoreEngine) {
  const database = useTestStore(engine);
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    server = await startServer({ databaseUrl: database().url });
  });
  afterAll(async () => {
    await server?.stop();
  });
  return { database, url: () => server?.url ?? "" };
}

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
    const validWrites = run.checks.filter(
      (check) => check.name === "probe (valid)" && check.request.method !== "GET",
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
