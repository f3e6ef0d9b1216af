// A deadline on every call the PostgreSQL store makes, kept by the server where it can be:
// straight to PostgreSQL, statement_timeout is a connection setting; through a pooler, which
// refuses it there, each transaction sets it (SET LOCAL), and so does each read, in the same
// message. The client's own deadline is the backstop for when the server cannot answer at all.
import type { ISql } from "postgres";
import { StoreUnavailableError } from "../store.ts";
import type { PostgresClient } from "./connect.ts";
import { isConnectionLost } from "./errors.ts";
import type { PostgresTransaction } from "./writes.ts";

// The client gives up this long after the server would have: room for statement_timeout's
// definite "not done" to arrive first.
export const CLIENT_GRACE_MS = 1000;

/** What a read is written against: the pool, or the transaction it runs in. */
export type Queryable = ISql<{ bigint: bigint }>;

export interface DeadlineOptions {
  /** DATABASE_QUERY_TIMEOUT_MS. */
  queryTimeoutMs: number;
  /** Whether each transaction sets synchronous_commit = on (the server's default is weaker). */
  raiseSynchronousCommit: boolean;
  /**
   * Through a pooler (connect.ts): a statement with parameters outside a transaction
   * is sent in two parts, and PgBouncer 1.18 may hand its server connection to another client
   * in between when it was pipelined behind another statement; in a transaction it keeps it.
   */
  pooled: boolean;
}

export interface BoundedCalls {
  /** When a call started now gives up: the query timeout and the client's grace. */
  deadlineFromNow(): number;
  /**
   * The rows of `text`, one statement whose values ($1, $2, …) are all whole numbers:
   * prepared and bound straight to PostgreSQL; through a pooler, sent as one simple query
   * with the numbers written in, after SET LOCAL statement_timeout in the same message, so
   * that the server bounds it too, in one round trip, and with no parameters to split it.
   */
  readNumbers<T extends object>(text: string, values: readonly (bigint | number)[]): Promise<T[]>;
  /**
   * The query's result, or StoreUnavailableError once the query timeout (and grace) passes;
   * through a pooler, in a transaction of its own (costlier than readNumbers).
   */
  read<T>(query: (q: Queryable) => PromiseLike<T>): Promise<T>;
  /**
   * `work` in one transaction whose statements the server cancels at `until` (epoch ms; the
   * query timeout from now when absent), with synchronous commit. Given `until`, the caller
   * bounds its own wait, and the promise settles only when the transaction does, so that
   * whoever counts transactions in flight counts this one until it is over. Work that has
   * not begun by `until` is not begun at all.
   */
  transaction<T>(work: (tx: PostgresTransaction) => Promise<T>, until?: number): Promise<T>;
}

export function boundedCalls(sql: PostgresClient, options: DeadlineOptions): BoundedCalls {
  const budgetMs = options.queryTimeoutMs + CLIENT_GRACE_MS;
  const deadlineFromNow = () => Date.now() + budgetMs;
  const durable = options.raiseSynchronousCommit ? "; SET LOCAL synchronous_commit = on" : "";

  const transaction = <T>(work: (tx: PostgresTransaction) => Promise<T>, until: number) => {
    if (until - Date.now() < 1) return Promise.reject(notBegun());
    return sql.begin(async (tx) => {
      // The BEGIN may have waited for a connection (an outage): past the deadline, the
      // caller has been answered already, and nothing is done for it.
      const left = Math.floor(until - Date.now());
      if (left < 1) throw notBegun();
      // Sent with the work, not awaited before it; if it fails, so does the transaction.
      tx.unsafe(`SET LOCAL statement_timeout = ${left}${durable}`).execute();
      try {
        return await work(tx as PostgresTransaction);
      } catch (error) {
        // postgres.js 3.4.9 answers a failed transaction with a ROLLBACK, written to the
        // connection even when it is gone, which throws in a timer and ends the process
        // (seen when a primary was killed under load). The transaction ended with the
        // connection anyway; this one never settles, and begin() rejects as it closes.
        if (isConnectionLost(error)) return await new Promise<never>(() => undefined);
        throw error;
      }
    }) as Promise<T>;
  };
  const bounded = <T>(work: (tx: PostgresTransaction) => Promise<T>): Promise<T> => {
    const deadline = deadlineFromNow();
    return within(transaction(work, deadline - CLIENT_GRACE_MS), deadline, budgetMs);
  };

  const readNumbers = async <T extends object>(
    text: string,
    values: readonly (bigint | number)[],
  ): Promise<T[]> => {
    const deadline = deadlineFromNow();
    if (!options.pooled) {
      const rows = sql.unsafe(text, values as (bigint | number)[], { prepare: true });
      return [...(await within(rows, deadline, budgetMs))] as T[];
    }
    const statement = `SET LOCAL statement_timeout = ${options.queryTimeoutMs}; ${withNumbers(text, values)}`;
    const results = (await within(sql.unsafe(statement), deadline, budgetMs)) as unknown as T[][];
    return [...(results.at(-1) ?? [])];
  };

  return {
    deadlineFromNow,
    readNumbers,
    read: options.pooled
      ? (query) => bounded(async (tx) => await query(tx))
      : (query) => within(query(sql), deadlineFromNow(), budgetMs),
    transaction: (work, until) => (until === undefined ? bounded(work) : transaction(work, until)),
  };
}

/** `text` with each $n replaced by the nth value, written as a literal: whole numbers only. */
export function withNumbers(text: string, values: readonly (bigint | number)[]): string {
  return text.replace(/\$(\d+)/g, (_, at: string) => {
    const value = values[Number(at) - 1];
    if (typeof value === "bigint" || (typeof value === "number" && Number.isSafeInteger(value))) {
      // In parentheses, so that a cast after it applies to the sign too.
      return `(${String(value)})`;
    }
    throw new TypeError(`$${at} is not a whole number: ${String(value)}`);
  });
}

const notBegun = () =>
  new StoreUnavailableError("the deadline passed before the transaction could begin");

/**
 * The work's result, or StoreUnavailableError once the deadline passes. The query is not
 * cancelled from here: postgres.js drops the promise of a cancel request, so a failed one
 * would be an unhandled rejection, and cancelling a query that is its connection's first
 * leaves that connection stuck. The server ends it at its statement_timeout.
 */
export async function within<T>(
  work: PromiseLike<T>,
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
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
