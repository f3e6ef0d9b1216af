// Schema versions for the SQLite store, recorded in PRAGMA user_version.
import type { Database } from "better-sqlite3";
import { GENERATED_MIGRATIONS } from "../migrations/index.ts";
import type { GeneratedMigration } from "../migrations/migration.ts";
import { type MigrationResult, SchemaTooNewError } from "../store.ts";

const MIGRATIONS: readonly string[] = [
  // 1: plants. id is the rowid (a signed 64-bit integer); STRICT refuses values of the
  // wrong type instead of converting them; tag NULL means "not sent".
  `CREATE TABLE plants (
     id   INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     tag  TEXT
   ) STRICT`,
  // 2: managed API tokens (src/store/tokens.ts). Times are milliseconds since the epoch; a
  // name is unique among the tokens not revoked, so a revoked name can be used again.
  `CREATE TABLE api_tokens (
     id           TEXT PRIMARY KEY,
     name         TEXT NOT NULL,
     hash         TEXT NOT NULL UNIQUE,
     scopes       TEXT,
     created_at   INTEGER NOT NULL,
     expires_at   INTEGER,
     last_used_at INTEGER,
     revoked_at   INTEGER
   ) STRICT;
   CREATE UNIQUE INDEX api_tokens_unrevoked_name ON api_tokens (name) WHERE revoked_at IS NULL`,
  // 3: one row the store rewrites to see whether it can write again after a fault (a full
  // disk, say); see src/store/fault-latch.ts.
  `CREATE TABLE plantstore_probe (
     id INTEGER PRIMARY KEY,
     at INTEGER NOT NULL
   ) STRICT`,
  // 4: webhook endpoints and their outbox (src/store/webhooks.ts); times in ms. A claim moves
  // next_attempt_at to its lease's end, so webhook_deliveries_due finds due and expired claims
  // alike with a range scan per endpoint, however many are pending.
  `CREATE TABLE webhook_endpoints (
     id                    TEXT PRIMARY KEY,
     url                   TEXT NOT NULL,
     description           TEXT,
     secret                TEXT NOT NULL,
     previous_secret       TEXT,
     previous_secret_until INTEGER,
     created_at            INTEGER NOT NULL,
     disabled_at           INTEGER
   ) STRICT;
   CREATE TABLE webhook_deliveries (
     id              TEXT PRIMARY KEY,
     endpoint_id     TEXT NOT NULL,
     plant_id        INTEGER NOT NULL,
     body            TEXT NOT NULL,
     status          TEXT NOT NULL,
     attempts        INTEGER NOT NULL,
     next_attempt_at INTEGER,
     lease_until     INTEGER,
     lease_owner     TEXT,
     last_status     INTEGER,
     last_error      TEXT,
     created_at      INTEGER NOT NULL,
     updated_at      INTEGER NOT NULL
   ) STRICT;
   CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_attempt_at)
     WHERE status = 'pending';
   CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, id);
   CREATE INDEX webhook_deliveries_pending_age ON webhook_deliveries (created_at)
     WHERE status = 'pending';
   CREATE INDEX webhook_deliveries_done ON webhook_deliveries (updated_at)
     WHERE status <> 'pending'`,
  // 5: every secret rotated away within its overlap keeps signing, not only the last: a JSON
  // list of {secret, until} (ms), newest first. previous_secret* stay, unused (SQLite drops a
  // column only by rebuilding the table).
  `ALTER TABLE webhook_endpoints ADD COLUMN retired_secrets TEXT NOT NULL DEFAULT '[]';
   UPDATE webhook_endpoints
   SET retired_secrets = json_array(json_object('secret', previous_secret, 'until', previous_secret_until))
   WHERE previous_secret IS NOT NULL AND previous_secret_until IS NOT NULL`,
  // 6: an event is stored once (src/store/outbox.ts): a write records one webhook_events row,
  // and the deliverer fans it out into deliveries that reference it. Each existing delivery
  // becomes an event of its own, already fanned out.
  `CREATE TABLE webhook_events (
     id         INTEGER PRIMARY KEY,
     type       TEXT NOT NULL,
     subject_id INTEGER,
     body       TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     fanned_out INTEGER NOT NULL DEFAULT 0
   ) STRICT;
   CREATE INDEX webhook_events_unfanned ON webhook_events (id) WHERE fanned_out = 0;
   ALTER TABLE webhook_deliveries ADD COLUMN event_id INTEGER;
   UPDATE webhook_deliveries SET event_id = rowid;
   INSERT INTO webhook_events (id, type, subject_id, body, created_at, fanned_out)
     SELECT event_id, 'newPlant', plant_id, body, created_at, 1 FROM webhook_deliveries;
   ALTER TABLE webhook_deliveries DROP COLUMN plant_id;
   ALTER TABLE webhook_deliveries DROP COLUMN body;
   CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)`,
  // 7: an endpoint gets the events recorded after its registration by order, not by clock:
  // first_event_id is the id the next event would take then. AUTOINCREMENT, so an id is never
  // taken again once the newest events are deleted. Events a race left without a delivery go.
  `CREATE TABLE webhook_events_ordered (
     id         INTEGER PRIMARY KEY AUTOINCREMENT,
     type       TEXT NOT NULL,
     subject_id INTEGER,
     body       TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     fanned_out INTEGER NOT NULL DEFAULT 0
   ) STRICT;
   INSERT INTO webhook_events_ordered (id, type, subject_id, body, created_at, fanned_out)
     SELECT id, type, subject_id, body, created_at, fanned_out FROM webhook_events AS ev
     WHERE ev.fanned_out = 0
        OR EXISTS (SELECT 1 FROM webhook_deliveries AS d WHERE d.event_id = ev.id);
   DROP TABLE webhook_events;
   ALTER TABLE webhook_events_ordered RENAME TO webhook_events;
   CREATE INDEX webhook_events_unfanned ON webhook_events (id) WHERE fanned_out = 0;
   ALTER TABLE webhook_endpoints ADD COLUMN first_event_id INTEGER NOT NULL DEFAULT 0;
   UPDATE webhook_endpoints SET first_event_id = coalesce(
     (SELECT min(ev.id) FROM webhook_events AS ev
      WHERE ev.fanned_out = 0 AND ev.created_at >= webhook_endpoints.created_at),
     (SELECT coalesce(max(id), 0) + 1 FROM webhook_events))`,
  // 8: an endpoint subscribes to the events it names (the YAML's x-event types), each from the
  // event recorded after its subscription on; endpoints registered before keep exactly the
  // event they were sent, newPlant, from where they got it.
  `CREATE TABLE webhook_subscriptions (
     endpoint_id    TEXT NOT NULL,
     type           TEXT NOT NULL,
     first_event_id INTEGER NOT NULL,
     PRIMARY KEY (endpoint_id, type)
   ) STRICT;
   CREATE INDEX webhook_subscriptions_type ON webhook_subscriptions (type, endpoint_id);
   INSERT INTO webhook_subscriptions (endpoint_id, type, first_event_id)
     SELECT id, 'newPlant', first_event_id FROM webhook_endpoints`,
];

/** The schema version this build migrates a SQLite file to. */
export const SQLITE_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Migrates to the latest version, or to `upTo` (a test of one migration's upgrade): the
 * hand-written versions above, then the migrations generated from the document (`generated`,
 * recorded by id; only once every hand-written one has run).
 */
export function migrateSqlite(
  db: Database,
  upTo = MIGRATIONS.length,
  generated: readonly GeneratedMigration[] = GENERATED_MIGRATIONS,
): MigrationResult {
  // BEGIN IMMEDIATE takes the write lock first, so processes starting together migrate once.
  return db
    .transaction((): MigrationResult => {
      const current = db.pragma("user_version", { simple: true }) as number;
      if (current > MIGRATIONS.length) {
        throw new SchemaTooNewError(current, MIGRATIONS.length);
      }
      for (const [index, sql] of MIGRATIONS.slice(0, upTo).entries()) {
        if (index < current) continue;
        db.exec(sql);
        db.pragma(`user_version = ${index + 1}`);
      }
      const applied = upTo < MIGRATIONS.length ? [] : migrateGenerated(db, generated);
      return { from: current, to: Math.max(current, upTo), generated: applied };
    })
    .immediate();
}

/** The generated migrations not recorded yet, applied in order; their ids. */
function migrateGenerated(db: Database, generated: readonly GeneratedMigration[]): string[] {
  db.exec(
    "CREATE TABLE IF NOT EXISTS plantstore_generated_migrations (id TEXT PRIMARY KEY) STRICT",
  );
  const recorded = db
    .prepare<[], string>("SELECT id FROM plantstore_generated_migrations")
    .pluck()
    .all();
  const unknown = recorded.find((id) => !generated.some((migration) => migration.id === id));
  if (unknown !== undefined) throw new SchemaTooNewError(unknown, generated.at(-1)?.id ?? "none");
  const record = db.prepare<[string]>(
    "INSERT INTO plantstore_generated_migrations (id) VALUES (?)",
  );
  const applied: string[] = [];
  for (const migration of generated) {
    if (recorded.includes(migration.id)) continue;
    for (const statement of migration.sqlite) db.exec(statement);
    record.run(migration.id);
    applied.push(migration.id);
  }
  return applied;
}
