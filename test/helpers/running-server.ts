// A spawned server on a fresh database of an engine, for the suites of a describe block that
// talk to it over HTTP (the client's): started before them, stopped and dropped after.
import { afterAll, beforeAll } from "vitest";
import { killLeftoverServers, type ServerProcess, startServer } from "./server-process.ts";
import type { StoreEngine, TestStore } from "./stores.ts";

export interface RunningServer {
  db: TestStore;
  server: ServerProcess;
}

/** `env`: settings of the server's own (webhook delivery, say), beside the tests' defaults. */
export function useRunningServer(
  engine: StoreEngine,
  env: Readonly<Record<string, string>> = {},
): () => RunningServer {
  let running: RunningServer | undefined;
  beforeAll(async () => {
    const db = await engine.create();
    running = { db, server: await startServer({ databaseUrl: db.url, env }) };
  });
  afterAll(async () => {
    await running?.server.stop();
    await killLeftoverServers();
    await running?.db.destroy();
  });
  return () => {
    if (running === undefined) throw new Error("the server is not running (outside a test?)");
    return running;
  };
}
