// The store on PostgreSQL (or an engine that speaks its protocol) through postgres.js, a
// repository per resource (rows.ts for every declared table, tokens.ts, webhooks.ts):
// a bounded pool shared by every request, ids as BIGINT <-> BigInt both ways, and a deadline
// on every call (deadlines.ts).

import { type PostgresDatabase, redactUrl } from "../../config/config.ts";
import type { GeneratedMigration } from "../migrations/migration.ts";
import { resources } from "../rows.ts";
import type { MigrationResult, Store, StoreOptions } from "../store.ts";
import { webhookStore } from "../webhooks.ts";
import { boundStartup, connectPostgres, isThroughPooler, type PostgresClient } from "./connect.ts";
import { boundedCalls, CLIENT_GRACE_MS, within } from "./deadlines.ts";
import { asStoreError } from "./errors.ts";
import { postgresGroupCommit } from "./group-commit.ts";
import { generatedRun, migratePostgres, migratePostgresGenerated } from "./migrations.ts";
import { postgresRowReads } from "./rows.ts";
import { createPostgresTokenStore } from "./tokens.ts";
import { postgresWebhookReads } from "./webhooks.ts";

export type { PostgresClient } from "./connect.ts";
export { boundStartup, connectPostgres, isThroughPooler } from "./connect.ts";

// A readiness probe waits at most this long: probes themselves time out after about a second.
const PING_TIMEOUT_MS = 1000;
// What synchronous_commit may be for a 200 to mean the commit is on disk (and on a
// synchronous standby, where there is one); anything weaker is raised to `on` per transaction.
const DURABLE_COMMITS = new Set(["on", "remote_apply"]);

interface ServerSettings {
  sync: string;
  version: string;
}

/** What describe() reports; refuses a database that could not keep every name exactly. */
async function readSettings(sql: PostgresClient): Promise<ServerSettings> {
  const [row] = await sql<(ServerSettings & { encoding: string })[]>`
    SELECT current_setting('synchronous_commit') AS sync,
           current_setting('server_version') AS version,
           current_setting('server_encoding') AS encoding`;
  if (row === undefined) throw new Error("the database returned no settings");
  if (row.encoding.toUpperCase() !== "UTF8") {
    throw new Error(
      `the database's encoding is ${row.encoding}; plantstore needs UTF8 to keep every name exactly (CREATE DATABASE … ENCODING 'UTF8')`,
    );
  }
  return { sync: row.sync, version: row.version };
}

/** What the start-up connection learnt about the other end. */
interface Opening {
  schema: MigrationResult;
  settings: ServerSettings;
  pooled: boolean;
}

/**
 * Migrates and reads the settings on one connection of its own, made as a pooler needs it,
 * and learns whether a pooler is there, before the pool is made for what is on the other end.
 */
async function openOnce(
  db: PostgresDatabase,
  migrations: readonly GeneratedMigration[] | undefined,
): Promise<Opening> {
  const probe = connectPostgres(db, { pooled: true, startup: true });
  const budgetMs = db.queryTimeoutMs + CLIENT_GRACE_MS;
  const bounded = <T>(work: PromiseLike<T>) => within(work, Date.now() + budgetMs, budgetMs);
  try {
    // `?prepare=` in the URL says it outright, for a pooler that passes the server's keys on.
    const pooled = db.prepare === undefined ? await bounded(isThroughPooler(probe)) : !db.prepare;
    await bounded(boundStartup(probe, pooled, db.queryTimeoutMs));
    const schema = await bounded(migratePostgres(probe));
    // Not bounded by a query's deadline: an index on a big table takes minutes to build.
    const run = generatedRun(db, pooled);
    const generated = await migratePostgresGenerated(probe, {
      ...run,
      generated: migrations ?? run.generated,
    });
    const settings = await bounded(readSettings(probe));
    return { schema: { ...schema, generated }, settings, pooled };
  } catch (error) {
    throw asStoreError(error);
  } finally {
    await probe.end({ timeout: 1 });
  }
}

/** The pool every request shares, made for what is on the other end. */
async function openPool(db: PostgresDatabase, pooled: boolean): Promise<PostgresClient> {
  const sql = connectPostgres(db, { pooled });
  try {
    // postgres.js looks the array types up on every connection it opens, and a connection
    // lost during the lookup and then refused leaves the lookup's failure unhandled, which
    // ends the process. Looked up once here, on the first connection, before any request;
    // then no connection looks again.
    const budgetMs = db.queryTimeoutMs + CLIENT_GRACE_MS;
    await within(sql`SELECT 1`, Date.now() + budgetMs, budgetMs);
    sql.options.fetch_types = false;
    return sql;
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw asStoreError(error);
  }
}

/** Connects, migrates, and returns the store; a database that is away throws StoreUnavailableError. */
export async function openPostgresStore(
  db: PostgresDatabase,
  options: StoreOptions,
): Promise<Store> {
  const { data } = options;
  const { schema, settings, pooled } = await openOnce(db, options.migrations);
  const sql = await openPool(db, pooled);
  const calls = boundedCalls(sql, {
    queryTimeoutMs: db.queryTimeoutMs,
    raiseSynchronousCommit: !DURABLE_COMMITS.has(settings.sync),
    pooled,
  });
  const { write, writes, faults } = postgresGroupCommit(calls, db, data);

  return {
    resources: resources(data.tables, write, (table) => postgresRowReads(table, calls)),
    tokens: createPostgresTokenStore(calls),
    webhooks: webhookStore(
      write,
      postgresWebhookReads(calls),
      data.events.map((event) => event.type),
      options.clock,
    ),
    async ping() {
      const deadline = Date.now() + PING_TIMEOUT_MS;
      try {
        await within(sql`SELECT 1`, deadline, PING_TIMEOUT_MS);
        await faults.check(async () => {
          await within(
            calls.transaction(async (tx) => {
              await tx`INSERT INTO plantstore_probe (id, at) VALUES (1, now())
                       ON CONFLICT (id) DO UPDATE SET at = excluded.at`;
            }, deadline),
            deadline,
            PING_TIMEOUT_MS,
          );
        });
      } catch (error) {
        throw asStoreError(error);
      }
    },
    describe() {
      const sync = DURABLE_COMMITS.has(settings.sync) ? settings.sync : "on";
      const pooler = pooled
        ? ", through a connection pooler: statements unprepared, one at a time per connection"
        : "";
      return `postgres ${redactUrl(db.url)} (server ${settings.version}, schema version ${schema.to}, pool max ${db.poolMax}${pooler}, synchronous_commit=${sync})`;
    },
    observeWrites: (observer) => writes.observe(observer),
    async close() {
      await writes.drain();
      await sql.end({ timeout: 5 });
    },
  };
}
