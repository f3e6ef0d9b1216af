// The store on PostgreSQL (or an engine that speaks its protocol) through postgres.js, a
// repository per resource (postgres-plants.ts, postgres-tokens.ts, postgres-webhooks.ts):
// a bounded pool shared by every request, ids as BIGINT <-> BigInt both ways, and a deadline
// on every call (postgres-deadlines.ts).
import { type PostgresDatabase, redactUrl } from "../config/config.ts";
import { newWebhookSecret } from "../webhooks/signature.ts";
import { createFaultLatch } from "./fault-latch.ts";
import { eventsOf } from "./outbox.ts";
import {
  boundStartup,
  connectPostgres,
  isThroughPooler,
  type PostgresClient,
} from "./postgres-connect.ts";
import { boundedCalls, CLIENT_GRACE_MS, within } from "./postgres-deadlines.ts";
import { asStoreError, isRetryableTransaction, isViolation } from "./postgres-errors.ts";
import { migratePostgres } from "./postgres-migrations.ts";
import { postgresPlantStore, type ReadNumbers } from "./postgres-plants.ts";
import { createPostgresTokenStore } from "./postgres-tokens.ts";
import { postgresWebhookReads } from "./postgres-webhooks.ts";
import {
  type PostgresTransaction,
  postgresWrites,
  recordPostgresEvents,
} from "./postgres-writes.ts";
import type { MigrationResult, Store } from "./store.ts";
import { webhookStore } from "./webhooks.ts";
import {
  createWritePath,
  VIOLATED,
  type Violated,
  type Write,
  type WriteArgs,
  type WriteName,
  type WritePath,
} from "./writes.ts";

export type { PostgresClient } from "./postgres-connect.ts";
export { boundStartup, connectPostgres, isThroughPooler } from "./postgres-connect.ts";

const TRANSACTION_ATTEMPTS = 3;
// Rows in one INSERT: enough to share a flush among every waiting request, small enough
// that the statement stays quick.
const MAX_BATCH = 512;
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
async function openOnce(db: PostgresDatabase): Promise<Opening> {
  const probe = connectPostgres(db, { pooled: true, startup: true });
  const budgetMs = db.queryTimeoutMs + CLIENT_GRACE_MS;
  const bounded = <T>(work: PromiseLike<T>) => within(work, Date.now() + budgetMs, budgetMs);
  try {
    // `?prepare=` in the URL says it outright, for a pooler that passes the server's keys on.
    const pooled = db.prepare === undefined ? await bounded(isThroughPooler(probe)) : !db.prepare;
    await bounded(boundStartup(probe, pooled, db.queryTimeoutMs));
    const schema = await bounded(migratePostgres(probe));
    const settings = await bounded(readSettings(probe));
    return { schema, settings, pooled };
  } catch (error) {
    throw asStoreError(error);
  } finally {
    await probe.end({ timeout: 1 });
  }
}

/** Connects, migrates, and returns the store; a database that is away throws StoreUnavailableError. */
export async function openPostgresStore(db: PostgresDatabase): Promise<Store> {
  const { schema, settings, pooled } = await openOnce(db);
  const sql = connectPostgres(db, { pooled });
  try {
    // postgres.js looks the array types up on every connection it opens, and a connection
    // lost during the lookup and then refused leaves the lookup's failure unhandled, which
    // ends the process. Looked up once here, on the first connection, before any request;
    // then no connection looks again.
    const budgetMs = db.queryTimeoutMs + CLIENT_GRACE_MS;
    await within(sql`SELECT 1`, Date.now() + budgetMs, budgetMs);
    sql.options.fetch_types = false;
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw asStoreError(error);
  }
  const calls = boundedCalls(sql, {
    queryTimeoutMs: db.queryTimeoutMs,
    raiseSynchronousCommit: !DURABLE_COMMITS.has(settings.sync),
    pooled,
  });
  const readNumbers: ReadNumbers = async <T extends object>(
    text: string,
    values: readonly (bigint | number)[],
  ): Promise<T[]> => {
    try {
      return await calls.readNumbers<T>(text, values);
    } catch (error) {
      throw asStoreError(error);
    }
  };

  // Group commit: concurrent writes share one transaction (one WAL flush), a run of creates
  // one INSERT. One connection is left for probes and token reads. Fewer batches in flight
  // would make them larger and a create cheaper in CPU, but clients of a remote database would
  // wait for a free slot (BENCHMARKS.md, "PostgreSQL batches in flight");
  // DATABASE_POOL_MAX sets it.
  const faults = createFaultLatch();
  const writes = createWritePath({
    // Watched per batch, not per write: every write of a batch shares its commit's outcome.
    execute: (batch) => faults.watch(() => writeBatch(batch)),
    maxInFlight: Math.max(1, db.poolMax - 1),
    maxBatch: MAX_BATCH,
  });

  // When each write's caller gives up, keyed by the arguments it handed to the write path
  // (the object a batch carries): a batch's statements may run until its last caller's
  // deadline, less the client's grace, and a batch whose callers have all given up is not
  // begun. The batch holds its place among those in flight until its transaction is over,
  // so that transactions stuck in the database (a commit waiting for a synchronous standby
  // that is gone) never take more connections than that.
  const givesUpAt = new WeakMap<object, number>();
  const write: WritePath["run"] = async <N extends WriteName>(name: N, args: WriteArgs<N>) => {
    const deadline = calls.deadlineFromNow();
    givesUpAt.set(args, deadline);
    return await within(writes.run(name, args), deadline, db.queryTimeoutMs + CLIENT_GRACE_MS);
  };

  /** The batch in one transaction, tried again when the engine aborts it as contended. */
  const writeBatch = async (batch: readonly Write[]): Promise<unknown[]> => {
    const latest = Math.max(...batch.map((w) => givesUpAt.get(w.args) ?? calls.deadlineFromNow()));
    for (let tries = 1; ; tries++) {
      try {
        return await calls.transaction((tx) => applyBatch(tx, batch), latest - CLIENT_GRACE_MS);
      } catch (error) {
        // A write broke a rule of the schema: again, each write in a savepoint (writes.ts).
        if (isViolation(error)) {
          return await calls
            .transaction((tx) => applyOneByOne(tx, batch), latest - CLIENT_GRACE_MS)
            .catch((again: unknown) => {
              throw asStoreError(again);
            });
        }
        // Distributed engines abort contended transactions; a batch is one transaction.
        if (isRetryableTransaction(error) && tries < TRANSACTION_ATTEMPTS) continue;
        throw asStoreError(error);
      }
    }
  };

  return {
    plants: postgresPlantStore(readNumbers, write),
    tokens: createPostgresTokenStore(calls),
    webhooks: webhookStore(write, newWebhookSecret, postgresWebhookReads(calls)),
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

/** The batch's writes in order, each alone in a savepoint; one that breaks a rule is refused. */
async function applyOneByOne(tx: PostgresTransaction, batch: readonly Write[]): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const write of batch) {
    try {
      results.push(await tx.savepoint((point) => applyBatch(point, [write]).then(([r]) => r)));
    } catch (error) {
      if (!isViolation(error)) throw error;
      const { message, detail } = error as { message: string; detail?: string };
      const said = detail === undefined ? message : `${message} (${detail})`;
      results.push({ outcome: VIOLATED, message: said } satisfies Violated);
    }
  }
  return results;
}

/** The batch's writes in order, each run of one write's name applied together. */
async function applyBatch(tx: PostgresTransaction, batch: readonly Write[]): Promise<unknown[]> {
  const results: unknown[] = [];
  for (let from = 0; from < batch.length; ) {
    const name = (batch[from] as Write).name;
    let to = from + 1;
    while (to < batch.length && (batch[to] as Write).name === name) to++;
    const run = batch.slice(from, to).map((write) => write.args);
    const apply = postgresWrites[name] as (
      t: PostgresTransaction,
      r: unknown[],
    ) => Promise<unknown[]>;
    results.push(...(await apply(tx, run)));
    from = to;
  }
  await recordPostgresEvents(
    tx,
    batch.flatMap((write, at) => eventsOf(write, results[at])),
  );
  return results;
}
