// Chooses the engine DATABASE_URL names. A PostgreSQL server that is not up yet (a
// container starting beside us, a failover) is retried until the start-up deadline.
// Each engine's code and driver is loaded only when the URL names it: a SQLite service never
// loads the PostgreSQL driver, nor a PostgreSQL one better-sqlite3 (memory: BENCHMARKS.md,
// "The compiled server").
import { setTimeout as sleep } from "node:timers/promises";
import { type DatabaseConfig, redactUrl } from "../config/config.ts";
import { type MigrationResult, type Store, StoreUnavailableError } from "./store.ts";
import type { DataDeclaration } from "./tables.ts";

const sqlite = () => import("./sqlite/store.ts");
const postgres = async () => ({
  ...(await import("./postgres/store.ts")),
  ...(await import("./postgres/errors.ts")),
  ...(await import("./postgres/migrations.ts")),
});

export interface OpenOptions {
  /** The document's tables and events (src/openapi/data.ts). */
  data: DataDeclaration;
  /** How long to keep retrying an unreachable database; 0 tries once. */
  startupTimeoutMs: number;
  /** Told about each failed attempt before the wait that follows it. */
  onRetry?: (reason: string, retryInMs: number, giveUpInMs: number) => void;
}

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 2_000;

export async function openStore(database: DatabaseConfig, options: OpenOptions): Promise<Store> {
  const { data } = options;
  if (database.engine === "sqlite") return await openSqliteWithWriter(database.path, data);
  const { openPostgresStore } = await postgres();
  const giveUpAt = Date.now() + options.startupTimeoutMs;
  for (let wait = FIRST_RETRY_MS; ; wait = Math.min(wait * 2, MAX_RETRY_MS)) {
    try {
      return await openPostgresStore(database, { data });
    } catch (error) {
      // Unlike a server still starting, a database that was never created does not appear.
      if (codeOf(error) === "3D000") throw new Error(missingDatabase(database.driverUrl));
      const left = giveUpAt - Date.now();
      if (!(error instanceof StoreUnavailableError) || left <= 0) throw error;
      const pause = Math.min(wait, left);
      options.onRetry?.(error.message, pause, left);
      await sleep(pause);
    }
  }
}

/** The SQLSTATE of a driver error, or of the one a StoreUnavailableError wraps. */
function codeOf(error: unknown): unknown {
  const cause = error instanceof StoreUnavailableError ? error.cause : error;
  return (cause as { code?: unknown } | null)?.code;
}

/** `database "plants" does not exist; create it first: createdb -h … plants` */
function missingDatabase(driverUrl: string): string {
  const url = new URL(driverUrl);
  const user = decodeURIComponent(url.username) || "postgres";
  const name = decodeURIComponent(url.pathname.slice(1)) || user;
  const quoted = (word: string) =>
    /^[\w.-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return `database ${JSON.stringify(name)} does not exist; create it first: createdb -h ${quoted(host)} -p ${url.port || "5432"} -U ${quoted(user)} ${quoted(name)}`;
}

/** The SQLite store with its write thread running, so a file it cannot write stops start-up. */
async function openSqliteWithWriter(path: string, data: DataDeclaration): Promise<Store> {
  const store = (await sqlite()).openSqliteStore(path, { data });
  try {
    await store.ping();
    return store;
  } catch (error) {
    await store.close();
    // Not "unreachable": retrying a local file that cannot be written would not help.
    throw new Error(`the write connection cannot be opened: ${(error as Error).message}`);
  }
}

/** Brings the schema up to date without serving (`npm run migrate`). */
export async function migrateDatabase(database: DatabaseConfig): Promise<MigrationResult> {
  if (database.engine === "sqlite") {
    const { db, schema } = (await sqlite()).openSqliteDatabase(database.path);
    db.close();
    return schema;
  }
  const {
    connectPostgres,
    migratePostgres,
    migratePostgresGenerated,
    generatedRun,
    asStoreError,
    isThroughPooler,
    boundStartup,
  } = await postgres();
  // Made as a pooler needs it, which works without one as well.
  const sql = connectPostgres(database, { pooled: true, startup: true });
  try {
    const pooled = database.prepare === undefined ? await isThroughPooler(sql) : !database.prepare;
    await boundStartup(sql, pooled, database.queryTimeoutMs);
    const schema = await migratePostgres(sql);
    const generated = await migratePostgresGenerated(sql, generatedRun(database, pooled));
    return { ...schema, generated };
  } catch (error) {
    throw asStoreError(error);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** Where the database is, for messages: a path, or the URL with its password masked. */
export const databaseLocation = (database: DatabaseConfig): string =>
  database.engine === "sqlite" ? database.path : redactUrl(database.url);
