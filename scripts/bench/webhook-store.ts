// Webhook rows written straight into a bench store before its server starts (an endpoint; a
// backlog of pending deliveries in bulk, with the outbox's columns), and the backlog read back.
import Database from "better-sqlite3";
import postgres from "postgres";
import { loadConfig, type PostgresDatabase } from "../../src/config/config.ts";
import { documentData } from "../../src/openapi/backend.ts";
import { openPostgresStore } from "../../src/store/postgres/store.ts";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import type { StoreLocation } from "./service-store.ts";

/** The server's settings for a PostgreSQL URL. */
const defaultDatabase = (url: string) =>
  loadConfig({ DATABASE_URL: url }).database as PostgresDatabase;

const DAY_MS = 24 * 60 * 60 * 1000;
/** One preloaded delivery in this many is due now; the rest fall due over the next day. */
const DUE_NOW_EVERY = 20;

async function withStore<T>(
  store: StoreLocation,
  sqlite: (db: Database.Database) => T,
  pg: (sql: postgres.Sql) => Promise<T>,
): Promise<T> {
  if (store.engine === "sqlite") {
    const db = new Database(store.path);
    try {
      db.pragma("busy_timeout = 10000");
      return sqlite(db);
    } finally {
      db.close();
    }
  }
  const sql = postgres(store.url, { max: 1, onnotice: () => undefined });
  try {
    return await pg(sql);
  } finally {
    await sql.end();
  }
}

/** Registers an endpoint as POST /webhook-endpoints does; returns its id. */
export async function insertEndpoint(store: StoreLocation, url: string): Promise<string> {
  return (await insertEndpoints(store, url, 1))[0] as string;
}

/**
 * Registers `count` endpoints to one URL through the store (every event declared), as the API
 * does; returns their ids.
 */
export async function insertEndpoints(
  store: StoreLocation,
  url: string,
  count: number,
): Promise<string[]> {
  const data = await documentData();
  const opened =
    store.engine === "sqlite"
      ? openSqliteStore(store.path, { data })
      : await openPostgresStore(
          { ...defaultDatabase(store.url), poolMax: 2, queryTimeoutMs: 600_000 },
          { data },
        );
  try {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const made = await opened.webhooks.createEndpoint({ url, description: "bench" });
      ids.push(made.id);
    }
    return ids;
  } finally {
    await opened.close();
  }
}

/** Bytes the webhook events and deliveries take, with their indexes. */
export function webhookBytes(store: StoreLocation): Promise<number> {
  return withStore(
    store,
    (db) =>
      Number(
        db
          .prepare(
            "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE 'webhook_events%' OR name LIKE 'webhook_deliveries%'",
          )
          .pluck()
          .get(),
      ),
    async (sql) =>
      Number(
        (
          await sql`SELECT (pg_total_relation_size('webhook_events')
                            + pg_total_relation_size('webhook_deliveries'))::text AS n`
        )[0]?.["n"] ?? 0,
      ),
  );
}

/**
 * `count` pending deliveries to `endpointId`, as if their receiver had been down for a day:
 * created over the last day, 0–6 attempts made, one in DUE_NOW_EVERY due now (so the
 * deliverer keeps claiming and failing) and the rest due at times spread over the next day.
 */
export function preloadDeliveries(
  store: StoreLocation,
  endpointId: string,
  count: number,
): Promise<void> {
  if (count === 0) return Promise.resolve();
  const now = Date.now();
  const step = DAY_MS / count;
  return withStore(
    store,
    (db) => {
      db.prepare(
        `WITH RECURSIVE g(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM g WHERE x < @count - 1)
         INSERT INTO webhook_events (id, type, subject_id, body, created_at, fanned_out)
         SELECT 900000000000 + x, 'newPlant', 900000000000 + x,
                '{"id":' || (900000000000 + x) || ',"name":"backlog plant ' || x || '"}',
                @now - @day + CAST(x * @step AS INTEGER), 1
         FROM g`,
      ).run({ count, now, day: DAY_MS, step });
      db.prepare(
        `WITH RECURSIVE g(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM g WHERE x < @count - 1)
         INSERT INTO webhook_deliveries
           (id, endpoint_id, event_id, status, attempts, next_attempt_at, last_error,
            created_at, updated_at)
         SELECT printf('msg_%012x', @now - @day + CAST(x * @step AS INTEGER))
                  || lower(hex(randomblob(10))),
                @endpoint, 900000000000 + x, 'pending', x % 7,
                CASE WHEN x % ${DUE_NOW_EVERY} = 0 THEN @now - x % 60000
                     ELSE @now + CAST(x * @step AS INTEGER) END,
                CASE WHEN x % 7 > 0 THEN 'connect ECONNREFUSED' END,
                @now - @day + CAST(x * @step AS INTEGER), @now
         FROM g`,
      ).run({ count, now, day: DAY_MS, step, endpoint: endpointId });
    },
    async (sql) => {
      await sql`
        INSERT INTO webhook_events (id, type, subject_id, body, created_at, fanned_out)
        SELECT 900000000000 + x, 'newPlant', 900000000000 + x,
               '{"id":' || (900000000000 + x) || ',"name":"backlog plant ' || x || '"}',
               to_timestamp((${now}::int8 - ${DAY_MS}::int8 + (x * ${step}::float8)::int8) / 1000.0),
               true
        FROM generate_series(0, ${count - 1}::int8) AS x`;
      await sql`
        INSERT INTO webhook_deliveries
          (id, endpoint_id, event_id, status, attempts, next_attempt_at, last_error,
           created_at, updated_at)
        SELECT 'msg_' || lpad(to_hex(${now}::int8 - ${DAY_MS}::int8 + (x * ${step}::float8)::int8), 12, '0')
                 || substr(md5(x::text), 1, 20),
               ${endpointId}, 900000000000 + x, 'pending', x % 7,
               to_timestamp((CASE WHEN x % ${DUE_NOW_EVERY} = 0 THEN ${now}::int8 - x % 60000
                                  ELSE ${now}::int8 + (x * ${step}::float8)::int8 END) / 1000.0),
               CASE WHEN x % 7 > 0 THEN 'connect ECONNREFUSED' END,
               to_timestamp((${now}::int8 - ${DAY_MS}::int8 + (x * ${step}::float8)::int8) / 1000.0),
               to_timestamp(${now}::int8 / 1000.0)
        FROM generate_series(0, ${count - 1}::int8) AS x`;
      await sql`ANALYZE webhook_events, webhook_deliveries`;
    },
  );
}

/** Pending deliveries in the store, every endpoint's. */
export function pendingDeliveries(store: StoreLocation): Promise<number> {
  const query = "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'";
  return withStore(
    store,
    (db) => Number((db.prepare(query).get() as { n: number }).n),
    async (sql) => Number((await sql.unsafe(query))[0]?.["n"] ?? 0),
  );
}

/** Plants in the store: what the creates stored. */
export function storedPlants(store: StoreLocation): Promise<number> {
  const query = "SELECT count(*) AS n FROM plants";
  return withStore(
    store,
    (db) => Number((db.prepare(query).get() as { n: number }).n),
    async (sql) => Number((await sql.unsafe(query))[0]?.["n"] ?? 0),
  );
}
