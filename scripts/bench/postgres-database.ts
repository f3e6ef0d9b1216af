// A PostgreSQL database of its own for a bench run, on TEST_DATABASE_URL's server: created
// fresh, migrated, preloaded, and dropped afterwards (npm run bench and bench:paired).
import postgres from "postgres";
import type { PostgresDatabase } from "../../src/config/config.ts";
import { parsePostgresUrl } from "../../src/config/postgres-url.ts";
import { migrateDatabase } from "../../src/store/open.ts";
import { connectPostgres } from "../../src/store/postgres/store.ts";
import { preloadPostgres } from "./preload.ts";

export interface BenchDatabase {
  url: string;
  /** Drops the database, closing any connection still open to it. */
  drop(): Promise<void>;
}

/**
 * `name` must be a plain identifier: it is written into the SQL as it is. With `preload`
 * undefined the database is left empty, for the service to make its own schema: another
 * checkout's may know fewer migrations than this one.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  name: string,
  preload: number | undefined,
): Promise<BenchDatabase> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  const drop = async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  try {
    await drop();
    await admin.unsafe(`CREATE DATABASE ${name} ENCODING 'UTF8' TEMPLATE template0`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    if (preload !== undefined) await prepare(url.href, preload);
    return {
      url: url.href,
      drop: async () => {
        try {
          await drop();
        } finally {
          await admin.end();
        }
      },
    };
  } catch (error) {
    await drop().catch(() => undefined);
    await admin.end();
    throw error;
  }
}

/** The settings a bench connects to its database with: a small pool, long deadlines. */
export const benchDatabase = (url: string): PostgresDatabase => ({
  engine: "postgres",
  ...parsePostgresUrl(url, "TEST_DATABASE_URL"),
  poolMax: 2,
  connectTimeoutMs: 5000,
  idleTimeoutMs: 1000,
  queryTimeoutMs: 600_000,
});

async function prepare(url: string, preload: number): Promise<void> {
  const database = benchDatabase(url);
  await migrateDatabase(database);
  // Made as a pooler needs it (TEST_DATABASE_URL may name one), which works without one too.
  const sql = connectPostgres(database, { pooled: true, startup: true });
  try {
    await preloadPostgres(sql, preload);
  } finally {
    await sql.end();
  }
}
