// PlantStore on PostgreSQL (or an engine that speaks its protocol) through postgres.js:
// a bounded pool shared by every request, ids as BIGINT <-> BigInt both ways.
import postgres, { type PendingQuery, type Row, type Sql } from "postgres";
import { type PostgresDatabase, redactUrl } from "../config.ts";
import { createFaultLatch } from "./fault-latch.ts";
import { asStoreError, isRetryableTransaction } from "./postgres-errors.ts";
import { migratePostgres } from "./postgres-migrations.ts";
import { createPostgresTokenStore } from "./postgres-tokens.ts";
import { postgresWrites } from "./postgres-writes.ts";
import { resultOf, toPlant, toStoredPlant } from "./rows.ts";
import {
  type CreateResult,
  type MigrationResult,
  type NewPlant,
  type Store,
  StoreUnavailableError,
} from "./store.ts";
import { createWritePath, type Write } from "./writes.ts";

interface PlantRow {
  name: string;
  tag: string | null;
}

const TRANSACTION_ATTEMPTS = 3;
// Rows in one INSERT: enough to share a flush among every waiting request, small enough
// that the statement stays quick.
const MAX_BATCH = 512;
// The client's own deadline is a backstop for when the server cannot answer at all (a dead
// network, every connection busy); it leaves statement_timeout room to answer first.
const CLIENT_GRACE_MS = 1000;
// A readiness probe waits at most this long: probes themselves time out after about a second.
const PING_TIMEOUT_MS = 1000;

/** The client with int8 mapped to BigInt, which is what lets a bigint be a parameter. */
export type PostgresClient = Sql<{ bigint: bigint }>;

export function connectPostgres(db: PostgresDatabase): PostgresClient {
  return postgres(db.url, {
    max: db.poolMax,
    connect_timeout: db.connectTimeoutMs / 1000,
    idle_timeout: db.idleTimeoutMs / 1000,
    // int8 both ways as BigInt: an id never passes through a double.
    types: { bigint: postgres.BigInt },
    connection: {
      application_name: "plantstore",
      // A 200 means the commit is on disk, whatever the server's default says.
      synchronous_commit: "on",
      // The server aborts a statement stuck past the deadline (a lock, a stall), so the
      // create fails with a definite "not stored" rather than an unknown outcome.
      statement_timeout: db.queryTimeoutMs,
    },
    onnotice: () => undefined,
  });
}

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

/** Connects, migrates, and returns the store; a database that is away throws StoreUnavailableError. */
export async function openPostgresStore(db: PostgresDatabase): Promise<Store> {
  const sql = connectPostgres(db);
  let schema: MigrationResult;
  let settings: ServerSettings;
  try {
    schema = await migratePostgres(sql);
    settings = await readSettings(sql);
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw asStoreError(error);
  }

  const run = <T extends readonly Row[]>(query: PendingQuery<T>, deadline: number): Promise<T> =>
    withDeadline(query, deadline, db.queryTimeoutMs + CLIENT_GRACE_MS);

  // Group commit: concurrent writes share one transaction (one WAL flush), a run of creates
  // one INSERT. One connection is left for probes and token reads. Fewer batches in flight
  // would make them larger and a create cheaper in CPU, but clients of a remote database would
  // wait for a free slot (BENCHMARKS.md, "PostgreSQL batches in flight");
  // DATABASE_POOL_MAX sets it.
  const faults = createFaultLatch();
  const writes = createWritePath({
    // Watched per batch, not per write: every write of a batch shares its commit's outcome.
    execute: (batch) => faults.watch(() => withRetries((deadline) => writeBatch(batch, deadline))),
    maxInFlight: Math.max(1, db.poolMax - 1),
    maxBatch: MAX_BATCH,
  });

  /** A write under one deadline, tried again when the engine aborts it as contended. */
  const withRetries = async <T>(write: (deadline: number) => Promise<T>): Promise<T> => {
    const deadline = Date.now() + db.queryTimeoutMs + CLIENT_GRACE_MS;
    for (let tries = 1; ; tries++) {
      try {
        return await write(deadline);
      } catch (error) {
        // Distributed engines abort contended transactions; a batch is one transaction.
        if (isRetryableTransaction(error) && tries < TRANSACTION_ATTEMPTS) continue;
        throw asStoreError(error);
      }
    }
  };

  /** The batch in one transaction: each run of one write's name applied together, in order. */
  const writeBatch = (batch: readonly Write[], deadline: number): Promise<unknown[]> =>
    withDeadline(
      sql.begin(async (tx) => {
        const results: unknown[] = [];
        for (let from = 0; from < batch.length; ) {
          const name = (batch[from] as Write).name;
          let to = from + 1;
          while (to < batch.length && (batch[to] as Write).name === name) to++;
          const run = batch.slice(from, to).map((write) => write.args);
          const apply = postgresWrites[name] as (t: typeof tx, r: unknown[]) => Promise<unknown[]>;
          results.push(...(await apply(tx, run)));
          from = to;
        }
        return results;
      }),
      deadline,
      db.queryTimeoutMs + CLIENT_GRACE_MS,
    );

  return {
    create(plant: NewPlant): Promise<CreateResult> {
      const row = { id: plant.id, name: plant.name, tag: plant.tag ?? null };
      return writes.run("createPlant", row).then((outcome) => resultOf(row, outcome));
    },
    async get(id) {
      try {
        const [row] = await sql<PlantRow[]>`SELECT name, tag FROM plants WHERE id = ${id}`;
        return row === undefined ? undefined : toPlant(row);
      } catch (error) {
        throw asStoreError(error);
      }
    },
    async list({ after, limit, maxTextBytes }) {
      // Keyset pages on the primary key: an index range scan from `after`, whatever the
      // table's size (OFFSET would read and drop every row before the page). The server cuts
      // the page at the byte bound, so that rows past it are never sent.
      try {
        const rows = await run(
          sql<(PlantRow & { id: bigint; upto: string; fetched: string })[]>`
            SELECT id, name, tag, upto, fetched FROM (
              SELECT id, name, tag, count(*) OVER () AS fetched,
                     sum(octet_length(name) + coalesce(octet_length(tag), 0)) OVER (ORDER BY id) AS upto
              FROM (SELECT id, name, tag FROM plants
                    ${after === undefined ? sql`` : sql`WHERE id > ${String(after)}::int8`}
                    ORDER BY id LIMIT ${limit}) AS candidates
            ) AS page
            WHERE upto <= ${maxTextBytes} OR upto = octet_length(name) + coalesce(octet_length(tag), 0)
            ORDER BY id`,
          Date.now() + db.queryTimeoutMs + CLIENT_GRACE_MS,
        );
        const fetched = Number(rows[0]?.fetched ?? 0);
        return {
          plants: rows.map(toStoredPlant),
          full: rows.length < fetched || fetched >= limit,
        };
      } catch (error) {
        throw asStoreError(error);
      }
    },
    async delete(id) {
      return (await writes.run("deletePlant", { id })).outcome === "deleted";
    },
    async ping() {
      const deadline = Date.now() + PING_TIMEOUT_MS;
      try {
        await withDeadline(sql`SELECT 1`, deadline, PING_TIMEOUT_MS);
        await faults.check(async () => {
          await withDeadline(
            sql`INSERT INTO plantstore_probe (id, at) VALUES (1, now())
                ON CONFLICT (id) DO UPDATE SET at = excluded.at`,
            deadline,
            PING_TIMEOUT_MS,
          );
        });
      } catch (error) {
        throw asStoreError(error);
      }
    },
    describe() {
      return `postgres ${redactUrl(db.url)} (server ${settings.version}, schema version ${schema.to}, pool max ${db.poolMax}, synchronous_commit=${settings.sync})`;
    },
    observeWrites: (observer) => writes.observe(observer),
    async close() {
      await writes.drain();
      await sql.end({ timeout: 5 });
    },
    tokens: createPostgresTokenStore(sql),
  };
}

/**
 * The statement's result, or StoreUnavailableError once the deadline passes. The statement
 * is not cancelled from here: postgres.js would reject a failed cancel out of our reach, and
 * statement_timeout already ends it on the server; a late commit is a plant a retry replays.
 */
async function withDeadline<T>(
  query: PromiseLike<T>,
  deadline: number,
  budgetMs: number,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError(`no answer from the database within ${budgetMs} ms`)),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    return await Promise.race([query, expired]);
  } finally {
    clearTimeout(timer);
  }
}
