// The store engines every shared suite runs against. A new engine is one more entry.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { loadCompiledData } from "../../src/openapi/compiled-api.ts";
import type { ApiData } from "../../src/openapi/data.ts";
import { openPostgresStore } from "../../src/store/postgres/store.ts";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import type { Store, StoreOptions } from "../../src/store/store.ts";
import { createTestDatabase, TEST_DATABASE_URL } from "./postgres.ts";

/** What the document declares of the data, as the build compiled it (test/global-setup.ts builds it). */
export const DATA: ApiData = await loadCompiledData();

export interface TestStore {
  /** DATABASE_URL naming this database, for a server process. */
  url: string;
  store: Store;
  /** Opens a second, independent connection (pool) to the same database. */
  reopen(options?: Partial<StoreOptions>): Promise<Store>;
  /** Closes every connection and removes the database. */
  destroy(): Promise<void>;
}

export interface StoreEngine {
  name: "sqlite" | "postgres";
  create(): Promise<TestStore>;
}

/** Opens stores on one database and closes them all before the database goes away. */
export async function trackStores(
  url: string,
  open: (options: StoreOptions) => Promise<Store>,
  remove: () => Promise<void>,
): Promise<TestStore> {
  const opened: Store[] = [];
  const reopen = async (options: Partial<StoreOptions> = {}): Promise<Store> => {
    const store = await open({ data: DATA, ...options });
    opened.push(store);
    return store;
  };
  return {
    url,
    store: await reopen(),
    reopen,
    async destroy() {
      await Promise.all(opened.map((s) => s.close().catch(() => undefined)));
      await remove();
    },
  };
}

export const sqliteEngine: StoreEngine = {
  name: "sqlite",
  create() {
    const dir = mkdtempSync(join(tmpdir(), "plantstore-test-"));
    const path = join(dir, "plants.db");
    return trackStores(
      `sqlite:${path}`,
      async (options) => openSqliteStore(path, options),
      async () => rmSync(dir, { recursive: true, force: true }),
    );
  },
};

export const postgresEngine: StoreEngine = {
  name: "postgres",
  async create() {
    const db = await createTestDatabase();
    const config = loadConfig({ DATABASE_URL: db.url });
    if (config.database.engine !== "postgres") throw new Error("not a PostgreSQL URL");
    const database = config.database;
    return trackStores(db.url, (options) => openPostgresStore(database, options), db.drop);
  },
};

/** SQLite always; PostgreSQL when TEST_DATABASE_URL names a server (see test/global-setup.ts). */
export const storeEngines: readonly StoreEngine[] =
  TEST_DATABASE_URL === undefined ? [sqliteEngine] : [sqliteEngine, postgresEngine];

/** One database per describe block: created before its tests, removed after them. */
export function useTestStore(engine: StoreEngine): () => TestStore {
  let current: TestStore | undefined;
  beforeAll(async () => {
    current = await engine.create();
  });
  afterAll(async () => {
    await current?.destroy();
  });
  return () => {
    if (current === undefined) throw new Error("useTestStore: the store is made in beforeAll");
    return current;
  };
}
