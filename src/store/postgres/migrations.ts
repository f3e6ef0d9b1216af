// Schema versions for the PostgreSQL store, recorded in plantstore_migrations. Only SQL
// that PostgreSQL, CockroachDB and YugabyteDB share: no advisory locks, no LOCK TABLE,
// no triggers or extensions. Instances starting together serialise on one locked row.

import type { PostgresDatabase } from "../../config/config.ts";
import { GENERATED_MIGRATIONS } from "../migrations/index.ts";
import type { GeneratedMigration } from "../migrations/migration.ts";
import { type MigrationResult, SchemaTooNewError } from "../store.ts";
import { connectPostgres, type PostgresClient } from "./connect.ts";
import { isUnavailable } from "./errors.ts";
import { withMigrationLease } from "./migration-lease.ts";
import { runStep } from "./migration-steps.ts";

interface Migration {
  name: string;
  sql: string;
}

const MIGRATIONS: readonly Migration[] = [
  {
    name: "create plants",
    // id is BIGINT so every int64 fits exactly; tag NULL means "not sent".
    sql: `CREATE TABLE plants (
            id   BIGINT PRIMARY KEY,
            name TEXT NOT NULL,
            tag  TEXT
          )`,
  },
  {
    name: "create api_tokens",
    // Managed API tokens (src/store/tokens.ts); a name is unique among unrevoked tokens.
    sql: `CREATE TABLE api_tokens (
            id           TEXT PRIMARY KEY,
            name         TEXT NOT NULL,
            hash         TEXT NOT NULL UNIQUE,
            scopes       TEXT,
            created_at   TIMESTAMPTZ NOT NULL,
            expires_at   TIMESTAMPTZ,
            last_used_at TIMESTAMPTZ,
            revoked_at   TIMESTAMPTZ
          );
          CREATE UNIQUE INDEX api_tokens_unrevoked_name ON api_tokens (name) WHERE revoked_at IS NULL`,
  },
  {
    name: "create plantstore_probe",
    // One row the store rewrites to see whether it can write again after a fault (a full
    // disk, a read-only server after a failover); see src/store/fault-latch.ts.
    sql: `CREATE TABLE plantstore_probe (
            id INTEGER PRIMARY KEY,
            at TIMESTAMPTZ NOT NULL
          )`,
  },
  {
    name: "create webhook_endpoints and webhook_deliveries",
    // Webhook endpoints and their outbox (src/store/webhooks.ts). A claim moves
    // next_attempt_at to its lease's end, so webhook_deliveries_due finds due and expired
    // claims alike with an index range scan per endpoint, however many are pending.
    sql: `CREATE TABLE webhook_endpoints (
            id                    TEXT PRIMARY KEY,
            url                   TEXT NOT NULL,
            description           TEXT,
            secret                TEXT NOT NULL,
            previous_secret       TEXT,
            previous_secret_until TIMESTAMPTZ,
            created_at            TIMESTAMPTZ NOT NULL,
            disabled_at           TIMESTAMPTZ
          );
          CREATE TABLE webhook_deliveries (
            id              TEXT PRIMARY KEY,
            endpoint_id     TEXT NOT NULL,
            plant_id        BIGINT NOT NULL,
            body            TEXT NOT NULL,
            status          TEXT NOT NULL,
            attempts        INTEGER NOT NULL,
            next_attempt_at TIMESTAMPTZ,
            lease_until     TIMESTAMPTZ,
            lease_owner     TEXT,
            last_status     INTEGER,
            last_error      TEXT,
            created_at      TIMESTAMPTZ NOT NULL,
            updated_at      TIMESTAMPTZ NOT NULL
          );
          CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_attempt_at)
            WHERE status = 'pending';
          CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, id);
          CREATE INDEX webhook_deliveries_pending_age ON webhook_deliveries (created_at)
            WHERE status = 'pending';
          CREATE INDEX webhook_deliveries_done ON webhook_deliveries (updated_at)
            WHERE status <> 'pending'`,
  },
  {
    name: "every secret rotated away within its overlap keeps signing",
    // A list of {secret, until} (ms since the epoch), newest first; previous_secret* unused.
    sql: `ALTER TABLE webhook_endpoints ADD COLUMN retired_secrets jsonb NOT NULL DEFAULT '[]';
          UPDATE webhook_endpoints
          SET retired_secrets = jsonb_build_array(jsonb_build_object(
                'secret', previous_secret,
                'until', (extract(epoch FROM previous_secret_until) * 1000)::int8))
          WHERE previous_secret IS NOT NULL AND previous_secret_until IS NOT NULL`,
  },
  {
    name: "an event is stored once, deliveries reference it",
    // A write records one webhook_events row (src/store/outbox.ts); the deliverer fans it out.
    // Each existing delivery becomes an event of its own, already fanned out.
    sql: `CREATE TABLE webhook_events (
            id         BIGSERIAL PRIMARY KEY,
            type       TEXT NOT NULL,
            subject_id BIGINT,
            body       TEXT NOT NULL,
            created_at TIMESTAMPTZ NOT NULL,
            fanned_out BOOLEAN NOT NULL DEFAULT false
          );
          CREATE INDEX webhook_events_unfanned ON webhook_events (id) WHERE NOT fanned_out;
          ALTER TABLE webhook_deliveries ADD COLUMN event_id BIGINT;
          UPDATE webhook_deliveries SET event_id = nextval('webhook_events_id_seq');
          INSERT INTO webhook_events (id, type, subject_id, body, created_at, fanned_out)
            SELECT event_id, 'newPlant', plant_id, body, created_at, true FROM webhook_deliveries;
          ALTER TABLE webhook_deliveries ALTER COLUMN event_id SET NOT NULL,
            DROP COLUMN plant_id, DROP COLUMN body;
          CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)`,
  },
  {
    name: "an endpoint gets the events recorded after its registration, by order",
    // Not by clock: instances' clocks differ. first_event_id is a value of the events' sequence
    // taken at registration. Events a race left without a delivery go.
    sql: `DELETE FROM webhook_events AS ev
          WHERE ev.fanned_out
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries AS d WHERE d.event_id = ev.id);
          ALTER TABLE webhook_endpoints ADD COLUMN first_event_id BIGINT;
          UPDATE webhook_endpoints AS e SET first_event_id = coalesce(
            (SELECT min(ev.id) FROM webhook_events AS ev
             WHERE NOT ev.fanned_out AND ev.created_at >= e.created_at),
            nextval('webhook_events_id_seq'));
          ALTER TABLE webhook_endpoints ALTER COLUMN first_event_id SET NOT NULL`,
  },
  {
    name: "an endpoint subscribes to the events it names",
    // Each from the event recorded after its subscription on (the YAML's x-event types);
    // endpoints registered before keep exactly the event they were sent, newPlant.
    sql: `CREATE TABLE webhook_subscriptions (
            endpoint_id    TEXT NOT NULL,
            type           TEXT NOT NULL,
            first_event_id BIGINT NOT NULL,
            PRIMARY KEY (endpoint_id, type)
          );
          CREATE INDEX webhook_subscriptions_type ON webhook_subscriptions (type, endpoint_id);
          INSERT INTO webhook_subscriptions (endpoint_id, type, first_event_id)
            SELECT id, 'newPlant', first_event_id FROM webhook_endpoints`,
  },
];

/** The migrations this build knows, by version (1 first): what plantstore_migrations records. */
export const POSTGRES_MIGRATIONS: readonly { version: number; name: string }[] = MIGRATIONS.map(
  ({ name }, index) => ({ version: index + 1, name }),
);

/** The generated migrations of this build, their steps run on connections made like `db`'s. */
export const generatedRun = (db: PostgresDatabase, pooled: boolean): GeneratedRun => ({
  generated: GENERATED_MIGRATIONS,
  steps: () => connectPostgres(db, { pooled, startup: true, unbounded: true }),
});

export interface GeneratedRun {
  /** The migrations generated from the document (migrations/index.ts). */
  generated: readonly GeneratedMigration[];
  /**
   * A client for their steps, used only when one is pending: another connection than the one
   * holding the migration lock, with no statement_timeout (an index is built in minutes).
   */
  steps: () => PostgresClient;
}

/**
 * Migrates to the latest hand-written version, or to `upTo` (a test of one migration's
 * upgrade); the generated ones follow (migratePostgresGenerated), with no deadline of the
 * query's.
 */
export async function migratePostgres(
  sql: PostgresClient,
  upTo = MIGRATIONS.length,
): Promise<MigrationResult> {
  await createBookkeeping(sql);
  const result = await sql.begin(async (tx) => {
    // Every migrating instance waits here for the one before it to commit.
    await tx`SELECT id FROM plantstore_migration_lock WHERE id = 1 FOR UPDATE`;
    const [row] = await tx<{ version: number | null }[]>`
      SELECT max(version)::INTEGER AS version FROM plantstore_migrations`;
    const from = row?.version ?? 0;
    if (from > MIGRATIONS.length) {
      throw new SchemaTooNewError(from, MIGRATIONS.length);
    }
    for (const [index, migration] of MIGRATIONS.slice(0, upTo).entries()) {
      if (index < from) continue;
      // The simple protocol, so one migration may hold several statements.
      await tx.unsafe(migration.sql).simple();
      await tx`INSERT INTO plantstore_migrations (version, name)
               VALUES (${index + 1}, ${migration.name})`;
    }
    return { from, to: Math.max(from, upTo) };
  });
  return { ...result, generated: [] };
}

// CREATE TABLE IF NOT EXISTS is not atomic in PostgreSQL: two instances creating the same
// table at once can fail with 23505, 42P07 or 42710. The loser's table exists, so it tries again.
async function createBookkeeping(sql: PostgresClient): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`CREATE TABLE IF NOT EXISTS plantstore_migrations (
                  version    INTEGER PRIMARY KEY,
                  name       TEXT NOT NULL,
                  applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )`;
      await sql`CREATE TABLE IF NOT EXISTS plantstore_migration_lock (id INTEGER PRIMARY KEY)`;
      await sql`INSERT INTO plantstore_migration_lock (id) VALUES (1) ON CONFLICT (id) DO NOTHING`;
      await sql`CREATE TABLE IF NOT EXISTS plantstore_generated_migrations (
                  id         TEXT PRIMARY KEY,
                  applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )`;
      await sql`ALTER TABLE plantstore_migration_lock
                  ADD COLUMN IF NOT EXISTS holder TEXT,
                  ADD COLUMN IF NOT EXISTS held_until TIMESTAMPTZ`;
      return;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const raced = ["23505", "42P07", "42710", "42701"].includes(String(code));
      if (!raced || attempt >= 5 || isUnavailable(error)) throw error;
    }
  }
}

/**
 * The generated migrations not recorded yet, applied in order under the migration lease
 * (migration-lease.ts: other instances starting wait; those serving go on), each step on a
 * connection of its own (migration-steps.ts); their ids.
 */
export async function migratePostgresGenerated(
  sql: PostgresClient,
  run: GeneratedRun,
): Promise<string[]> {
  const recordedIds = async () =>
    (await sql<{ id: string }[]>`SELECT id FROM plantstore_generated_migrations`).map((r) => r.id);
  const unknown = (await recordedIds()).find(
    (id) => !run.generated.some((migration) => migration.id === id),
  );
  if (unknown !== undefined)
    throw new SchemaTooNewError(unknown, run.generated.at(-1)?.id ?? "none");
  const pendingIn = (recorded: readonly string[]) =>
    run.generated.filter((migration) => !recorded.includes(migration.id));
  if (pendingIn(await recordedIds()).length === 0) return [];
  return withMigrationLease(sql, async () => {
    // Read again under the lease: another instance may have run them meanwhile.
    const pending = pendingIn(await recordedIds());
    if (pending.length === 0) return [];
    const steps = run.steps();
    try {
      for (const migration of pending) {
        for (const step of migration.postgres) await runStep(steps, step);
        await sql`INSERT INTO plantstore_generated_migrations (id) VALUES (${migration.id})`;
      }
    } finally {
      await steps.end({ timeout: 5 });
    }
    return pending.map((migration) => migration.id);
  });
}
