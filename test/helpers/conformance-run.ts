// What the conformance suites share: a spawned server on a store of its own for the tests of
// one describe, and a run's failures as lines.
import { afterAll, beforeAll } from "vitest";
import type { RunResult } from "../../src/conformance/results.ts";
import { type ServerProcess, startServer } from "./server-process.ts";
import { type StoreEngine, useTestStore } from "./stores.ts";

/** A server on `engine`, with `env` added to its environment, started before the describe's tests. */
export function useServerOn(engine: StoreEngine, env: Readonly<Record<string, string>> = {}) {
  const database = useTestStore(engine);
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    server = await startServer({ databaseUrl: database().url, env });
  });
  afterAll(async () => {
    await server?.stop();
  });
  return { database, url: () => server?.url ?? "" };
}

/** "operationId name: rule; rule" for each failed check. */
export const failures = (run: RunResult): string[] =>
  run.checks
    .filter((check) => check.broken.length > 0)
    .map((check) => `${check.operationId} ${check.name}: ${check.broken.join("; ")}`);
