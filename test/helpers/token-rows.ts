// Fills a token table (or a delivery log) fast, in one SQL statement on a connection of its own,
// for tests that need a large table: create() would commit (and flush to disk) one row at a time.
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import postgres from "postgres";

export interface TokenRowsOptions {
  /** When given, every row is revoked at this time. */
  revokedAt?: Date;
}

/** Inserts `count` unused tokens with unique ids, names and (random) hashes. */
export async function insertTokenRows(
  databaseUrl: string,
  count: number,
  options: TokenRowsOptions = {},
): Promise<void> {
  const prefix = `bulk-${randomBytes(6).toString("hex")}`;
  const now = new Date();
  const revokedAt = options.revokedAt ?? null;
  await onConnection(databaseUrl, {
    sqlite: (db) =>
      db
        .prepare<[number, string, string, number, number | null]>(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
           INSERT INTO api_tokens (id, name, hash, created_at, revoked_at)
           SELECT 'tok_' || ? || i, ? || '-' || i, lower(hex(randomblob(32))), ?, ? FROM n`,
        )
        .run(count, prefix, prefix, now.getTime(), revokedAt?.getTime() ?? null),
    postgres: (sql) => sql`
      INSERT INTO api_tokens (id, name, hash, created_at, revoked_at)
      SELECT 'tok_' || ${prefix} || i, ${prefix} || '-' || i,
             encode(sha256((${prefix} || i)::bytea), 'hex'), ${now}, ${revokedAt}
      FROM generate_series(1, ${count}) AS i`,
  });
}

/** Inserts `count` pending deliveries of one event to `endpointId`, made now. */
export async function insertPendingDeliveries(
  databaseUrl: string,
  endpointId: string,
  count: number,
): Promise<void> {
  const now = Date.now();
  await onConnection(databaseUrl, {
    sqlite: (db) => {
      const event = db
        .prepare<[number]>(
          `INSERT INTO webhook_events (type, subject_id, body, created_at, fanned_out)
           VALUES ('newPlant', 1, '{}', ?, 1)`,
        )
        .run(now).lastInsertRowid;
      db.prepare<[{ count: number; endpoint: string; now: number; event: number | bigint }]>(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @count)
         INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, attempts,
           next_attempt_at, created_at, updated_at)
         SELECT 'msg_bulk' || i, @endpoint, @event, 'pending', 0, @now + 3600000, @now, @now
         FROM n`,
      ).run({ count, endpoint: endpointId, now, event });
    },
    postgres: (sql) => sql`
      WITH event AS (
        INSERT INTO webhook_events (type, subject_id, body, created_at, fanned_out)
        VALUES ('newPlant', 1, '{}', now(), true) RETURNING id)
      INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, attempts,
        next_attempt_at, created_at, updated_at)
      SELECT 'msg_bulk' || i, ${endpointId}, event.id, 'pending', 0,
             now() + interval '1 hour', now(), now()
      FROM generate_series(1, ${count}::int4) AS i, event`,
  });
}

/** Runs statements on a connection of its own to the database, whichever its engine. */
export async function onConnection(
  databaseUrl: string,
  run: {
    sqlite: (db: Database.Database) => unknown;
    postgres: (sql: postgres.Sql) => Promise<unknown>;
  },
): Promise<void> {
  if (databaseUrl.startsWith("sqlite:")) {
    const db = new Database(databaseUrl.slice("sqlite:".length));
    try {
      db.pragma("busy_timeout = 5000");
      run.sqlite(db);
    } finally {
      db.close();
    }
    return;
  }
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    await run.postgres(sql);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** Rows of webhook_events: what the store keeps of events until their deliveries are gone. */
export async function storedEvents(databaseUrl: string): Promise<number> {
  let count = 0;
  await onConnection(databaseUrl, {
    sqlite: (db) => {
      count = Number(db.prepare("SELECT count(*) FROM webhook_events").pluck().get());
    },
    postgres: async (sql) => {
      count = Number((await sql`SELECT count(*)::int4 AS n FROM webhook_events`)[0]?.["n"]);
    },
  });
  return count;
}
