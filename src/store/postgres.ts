// PlantStore on PostgreSQL (or an engine that speaks its protocol) through postgres.js:
// a bounded pool shared by every request, ids as BIGINT <-> BigInt both ways.
import postgres, { type PendingQuery, type Row, type Sql } from "postgres";
import { type PostgresDatabase, redactUrl } from "../config.ts";
import {
  outcomesInOrder,
  type RowOutcome,
  resultOf,
  toPlant,
  toStoredPlant,
} from "./batch-outcome.ts";
import { createBatcher } from "./batcher.ts";
import { createFaultLatch } from "./fault-latch.ts";
import { asStoreError, isRetryableTransaction } from "./postgres-errors.ts";
import { migratePostgres } from "./postgres-migrations.ts";
import { createPostgresTokenStore } from "./postgres-tokens.ts";
import {
  type CreateResult,
  type MigrationResult,
  type NewPlant,
  type Store,
  StoreUnavailableError,
  storableOrRefusal,
} from "./store.ts";

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

  // Group commit: concurrent creates share one INSERT (one transaction, one WAL flush). One
  // connection is left for probes and token reads. Fewer batches in flight would make them
  // larger and a create about 10% cheaper in CPU, but clients of a remote database would wait
  // for a free slot (BENCHMARKS.md, twelfth session); DATABASE_POOL_MAX sets it.
  const faults = createFaultLatch();
  const batcher = createBatcher<NewPlant, RowOutcome>({
    // Watched per batch, not per write: every write of a batch shares its commit's outcome.
    write: (plants) => faults.watch(() => writeWithRetries(plants)),
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
        // Distributed engines abort contended transactions; each statement is idempotent.
        if (isRetryableTransaction(error) && tries < TRANSACTION_ATTEMPTS) continue;
        throw asStoreError(error);
      }
    }
  };

  const writeWithRetries = (plants: readonly NewPlant[]): Promise<RowOutcome[]> =>
    withRetries((deadline) => writeBatch(plants, deadline));

  const writeBatch = async (plants: readonly NewPlant[], deadline: number) => {
    // Ids travel as text and are cast on the server, so none passes through a double. For
    // an id sent twice in the batch, the first in arrival order is the one inserted.
    const ids = plants.map((plant) => String(plant.id));
    const inserted = await run(
      sql<{ id: bigint }[]>`
        INSERT INTO plants (id, name, tag)
        SELECT DISTINCT ON (id) id, name, tag
        FROM unnest(${ids}::int8[], ${plants.map((p) => p.name)}::text[],
                    ${plants.map((p) => p.tag ?? null)}::text[]) WITH ORDINALITY AS t(id, name, tag, n)
        ORDER BY id, n
        ON CONFLICT (id) DO NOTHING RETURNING id`,
      deadline,
    );
    const insertedIds = new Set(inserted.map((row) => String(row.id)));
    const missing = ids.filter((id) => !insertedIds.has(id));
    // A separate statement, so it sees rows other transactions committed after ours began.
    const stored =
      missing.length === 0
        ? []
        : await run(
            sql<(PlantRow & { id: bigint })[]>`
              SELECT id, name, tag FROM plants WHERE id = ANY(${missing}::int8[])`,
            deadline,
          );
    return outcomesInOrder(
      plants,
      insertedIds,
      new Map(stored.map((row) => [String(row.id), row])),
    );
  };

  return {
    // Not async: the batch's own promise, continued, is the answer (a layer less per create).
    create(plant: NewPlant): Promise<CreateResult> {
      const wanted = toPlant({ name: plant.name, tag: plant.tag ?? null });
      const refused = storableOrRefusal(wanted);
      if (refused !== undefined) return refused;
      return batcher.submit(plant).then((outcome) => resultOf(wanted, outcome));
    },
    async get(id) {
      try {
        const [row] = await sql<PlantRow[]>`SELECT name, tag FROM plants WHERE id = ${id}`;
        return row === undefined ? undefined : toPlant(row);
      } catch (error) {
        throw asStoreError(error);
      }
    },
    async list({ after, limit }) {
      // Keyset pages on the primary key: an index range scan from `after`, whatever the
      // table's size (OFFSET would read and drop every row before the page).
      try {
        const rows = await run(
          sql<(PlantRow & { id: bigint })[]>`
            SELECT id, name, tag FROM plants
            ${after === undefined ? sql`` : sql`WHERE id > ${String(after)}::int8`}
            ORDER BY id LIMIT ${limit}`,
          Date.now() + db.queryTimeoutMs + CLIENT_GRACE_MS,
        );
        return rows.map(toStoredPlant);
      } catch (error) {
        throw asStoreError(error);
      }
    },
    async delete(id) {
      // One statement, committed (synchronous_commit=on) before it answers.
      const deleted = await faults.watch(() =>
        withRetries((deadline) =>
          run(sql`DELETE FROM plants WHERE id = ${String(id)}::int8 RETURNING id`, deadline),
        ),
      );
      return deleted.length === 1;
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
    async close() {
      await batcher.drain();
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
