// The write path on PostgreSQL: group commit, each batch in one transaction on the pool, with
// the deadline of its last caller, tried again when the engine aborts it as contended, and
// applied write by write in savepoints when a write breaks a rule of the schema (writes.ts).
import type { PostgresDatabase } from "../../config/config.ts";
import { createFaultLatch, type FaultLatch } from "../fault-latch.ts";
import { type EventsOf, outbox } from "../outbox.ts";
import type { DataDeclaration } from "../tables.ts";
import {
  createWritePath,
  VIOLATED,
  type Violated,
  type Write,
  type WriteArgs,
  type WriteName,
  type WritePath,
} from "../writes.ts";
import { type BoundedCalls, CLIENT_GRACE_MS, within } from "./deadlines.ts";
import { asStoreError, isRetryableTransaction, isViolation } from "./errors.ts";
import {
  type PostgresTransaction,
  type PostgresWrites,
  postgresWrites,
  recordPostgresEvents,
} from "./writes.ts";

const TRANSACTION_ATTEMPTS = 3;
// Rows in one INSERT: enough to share a flush among every waiting request, small enough
// that the statement stays quick.
const MAX_BATCH = 512;

export interface GroupCommit {
  /** A write, given up by its caller after the query timeout. */
  write: WritePath["run"];
  writes: WritePath;
  faults: FaultLatch;
}

export function postgresGroupCommit(
  calls: BoundedCalls,
  db: PostgresDatabase,
  data: DataDeclaration,
): GroupCommit {
  const apply = batchApplier(postgresWrites(data), outbox(data));
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
    tables: data.tables,
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
        return await calls.transaction((tx) => apply(tx, batch), latest - CLIENT_GRACE_MS);
      } catch (error) {
        // A write broke a rule of the schema: again, each write in a savepoint (writes.ts).
        if (isViolation(error)) {
          return await calls
            .transaction((tx) => applyOneByOne(apply, tx, batch), latest - CLIENT_GRACE_MS)
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

  return { write, writes, faults };
}

/** The batch's writes in order, each alone in a savepoint; one that breaks a rule is refused. */
async function applyOneByOne(
  apply: ApplyBatch,
  tx: PostgresTransaction,
  batch: readonly Write[],
): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const write of batch) {
    try {
      results.push(await tx.savepoint((point) => apply(point, [write]).then(([r]) => r)));
    } catch (error) {
      if (!isViolation(error)) throw error;
      const { message, detail } = error as { message: string; detail?: string };
      const said = detail === undefined ? message : `${message} (${detail})`;
      results.push({ outcome: VIOLATED, message: said } satisfies Violated);
    }
  }
  return results;
}

type ApplyBatch = (tx: PostgresTransaction, batch: readonly Write[]) => Promise<unknown[]>;

/** One run: the same write, and for a row's the same table (one statement serves one table). */
const sameRun = (a: Write, b: Write): boolean =>
  a.name === b.name &&
  (!("table" in a.args) || a.args.table === (b.args as { table?: string }).table);

/**
 * Applies a batch's writes in order, each run of one write (and one table) together, then
 * records their events.
 */
function batchApplier(writes: PostgresWrites, eventsOf: EventsOf): ApplyBatch {
  return async (tx, batch) => {
    const results: unknown[] = [];
    for (let from = 0; from < batch.length; ) {
      const first = batch[from] as Write;
      let to = from + 1;
      while (to < batch.length && sameRun(first, batch[to] as Write)) to++;
      const run = batch.slice(from, to).map((write) => write.args);
      const apply = writes[first.name] as (
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
  };
}
