// Databases no plantstore has opened yet (schema version 0), one kind per engine, for tests
// of migration itself: a TestStore's database is migrated as it is created.

import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import postgres from "postgres";
import { loadConfig } from "../../src/config/config.ts";
import { openStore } from "../../src/store/open.ts";
import type { Store } from "../../src/store/store.ts";
import { createTestDatabase, TEST_DATABASE_URL } from "./postgres.ts";
import { makeTempDb } from "./server-process.ts";
import { DATA } from "./stores.ts";

export interface EmptyDatabase {
  /** DATABASE_URL naming this database. */
  url: string;
  /**
   * The schema versions recorded as applied: PostgreSQL's plantstore_migrations rows in
   * order; for SQLite 1 … user_version, since its migrations only ever apply in order.
   */
  versions(): Promise<number[]>;
  /** Records `version` as applied, as a newer plantstore would have. */
  recordVersion(version: number): Promise<void>;
  /** Removes the database. */
  drop(): Promise<void>;
}

export interface EmptyDatabaseKind {
  name: "sqlite" | "postgres";
  create(): Promise<EmptyDatabase>;
}

const sqliteKind: EmptyDatabaseKind = {
  name: "sqlite",
  async create() {
    const tmp = makeTempDb();
    const withFile = <T>(use: (db: Database.Database) => T): T => {
      const db = new Database(tmp.path);
      try {
        return use(db);
      } finally {
        db.close();
      }
    };
    return {
      url: `sqlite:${tmp.path}`,
      async versions() {
        if (!existsSync(tmp.path)) return [];
        const version = withFile((db) => db.pragma("user_version", { simple: true }) as number);
        return Array.from({ length: version }, (_, i) => i + 1);
      },
      async recordVersion(version) {
        withFile((db) => db.pragma(`user_version = ${version}`));
      },
      async drop() {
        tmp.remove();
      },
    };
  },
};

const postgresKind: EmptyDatabaseKind = {
  name: "postgres",
  async create() {
    const db = await createTestDatabase();
    const withClient = async <T>(use: (sql: postgres.Sql) => Promise<T>): Promise<T> => {
      const sql = postgres(db.url, { max: 1, onnotice: () => undefined });
      try {
        return await use(sql);
      } finally {
        await sql.end({ timeout: 1 });
      }
    };
    return {
      url: db.url,
      versions: () =>
        withClient(async (sql) => {
          const [table] = await sql`SELECT to_regclass('plantstore_migrations') AS name`;
          if (table?.["name"] === null) return [];
          const rows = await sql<{ version: number }[]>`
            SELECT version FROM plantstore_migrations ORDER BY version`;
          return rows.map((row) => row.version);
        }),
      recordVersion: (version) =>
        withClient(async (sql) => {
          await sql`INSERT INTO plantstore_migrations (version, name)
                    VALUES (${version}, 'from a newer plantstore')`;
        }),
      drop: db.drop,
    };
  },
};

/** SQLite always; PostgreSQL when TEST_DATABASE_URL names a server. */
export const emptyDatabaseKinds: readonly EmptyDatabaseKind[] =
  TEST_DATABASE_URL === undefined ? [sqliteKind] : [sqliteKind, postgresKind];

/** A store on the database `url` names, opened the way the server opens it (migrating it). */
export function openStoreAt(url: string): Promise<Store> {
  return openStore(loadConfig({ DATABASE_URL: url }).database, { startupTimeoutMs: 0, data: DATA });
}
