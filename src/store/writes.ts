// The store's one write path. Every write is named and listed here with its arguments and
// result; each engine implements the list (sqlite/writes.ts, postgres/writes.ts) and runs what
// is submitted in group-commit batches, one transaction a batch, in the order submitted. The rows
// of every declared table (tables.ts) are written by three writes, whatever the table: a new
// table or member needs no new write, protocol or metric. A write reports what it found (a
// conflict, nothing to delete) as its result; a write that breaks a rule of the schema (a
// foreign key, a check) is refused alone: each engine applies that batch again with every write
// in a savepoint of its own and reports VIOLATED for that one, which the caller gets as a
// ConstraintViolationError (409). Any other error fails the whole batch, as a failed commit would.
import { createBatcher } from "./batcher.ts";
import { ConstraintViolationError } from "./store.ts";
import type { Row, Table, WriteAction } from "./tables.ts";
import { WEBHOOK_WRITE_KEYS, type WebhookWrites } from "./webhooks.ts";

export type CreateOutcome =
  | { outcome: "created" }
  /** The key was taken: by the same row (a replay) or another; nothing was changed. */
  | { outcome: "replayed" | "conflict"; row: Row }
  /** A member names a row of another table that is not stored; nothing was changed. */
  | { outcome: "unreferenced"; member: string };

export type UpdateOutcome =
  /** The row as stored after the change. */
  | { outcome: "updated"; row: Row }
  | { outcome: "absent" }
  | { outcome: "unreferenced"; member: string };

export type DeleteOutcome =
  /** The row as it was, for the events its delete sends. */
  { outcome: "deleted"; row: Row } | { outcome: "absent" };

/** The writes of every declared table's rows, each naming its table. */
export interface RowWrites {
  createRow: { args: { table: string; row: Row }; result: CreateOutcome };
  updateRow: { args: { table: string; key: unknown; patch: Row }; result: UpdateOutcome };
  deleteRow: { args: { table: string; key: unknown }; result: DeleteOutcome };
}

/** Every write: its arguments and its result. The result's `outcome` labels its metrics. */
export interface Writes extends RowWrites, WebhookWrites {}

export type WriteName = keyof Writes;
export type WriteArgs<N extends WriteName> = Writes[N]["args"];
export type WriteResult<N extends WriteName> = Writes[N]["result"];

/** One submitted write, as a batch carries it. */
export type Write = { [N in WriteName]: { name: N; args: WriteArgs<N> } }[WriteName];

export const ROW_WRITES: Readonly<Record<keyof RowWrites, WriteAction>> = {
  createRow: "create",
  updateRow: "update",
  deleteRow: "delete",
};

const capitalized = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

/**
 * How metrics and logs name a write: a row's by its action and its table's noun
 * (`createPlant`), the others by their own name.
 */
export function writeLabels(tables: readonly Table[]): (write: Write) => string {
  const labels = new Map(
    tables.flatMap((table) =>
      Object.entries(ROW_WRITES).map(([name, action]) => [
        `${name}:${table.name}`,
        `${action}${capitalized(table.noun)}`,
      ]),
    ),
  );
  return (write) =>
    "table" in write.args
      ? (labels.get(`${write.name}:${write.args.table}`) ?? write.name)
      : write.name;
}

/** A counter a write's outcome adds to, for the metrics. */
export interface WriteCounter {
  name: string;
  help: string;
  /** The write's label (writeLabels). */
  write: string;
  outcome: string;
}

/** What the metrics count of writes, beside timing each: every table's rows stored anew. */
export const writeCounters = (tables: readonly Table[]): WriteCounter[] =>
  tables.map((table) => ({
    name: `plantstore_${table.name}_created_total`,
    help: `${capitalized(table.name)} stored for the first time (replays and conflicts not counted)`,
    write: `create${capitalized(table.noun)}`,
    outcome: "created",
  }));

/**
 * What each write touches: its own row's key, and the key of every row it names (a child's
 * create names its parent: `[child:C, parent:P]`, and the parent's delete has `parent:P`).
 * Writes sharing a key are applied in the order they were submitted, on every engine, even
 * where batches commit side by side (PostgreSQL's pool).
 */
function writeKeys(tables: readonly Table[]): (write: Write) => readonly string[] {
  const referencing = new Map(
    tables.map((table) => [table.name, table.columns.filter((c) => c.references !== undefined)]),
  );
  const keyOf = new Map(tables.map((table) => [table.name, table.key]));
  const named = (table: string, row: Row) =>
    (referencing.get(table) ?? []).flatMap((column) => {
      const value = row[column.member];
      return value === undefined || value === null ? [] : [`${column.references}:${value}`];
    });
  return (write) => {
    switch (write.name) {
      case "createRow": {
        const { table, row } = write.args;
        return [`${table}:${row[keyOf.get(table) ?? ""]}`, ...named(table, row)];
      }
      case "updateRow":
        return [
          `${write.args.table}:${write.args.key}`,
          ...named(write.args.table, write.args.patch),
        ];
      case "deleteRow":
        return [`${write.args.table}:${write.args.key}`];
      default: {
        const keys = (
          WEBHOOK_WRITE_KEYS[write.name] as (args: unknown) => string | readonly string[]
        )(write.args);
        return typeof keys === "string" ? [keys] : keys;
      }
    }
  };
}

/** The result of a write that broke a rule of the schema, as an engine reports it. */
export interface Violated {
  outcome: typeof VIOLATED;
  /** The database's words: the rule, and the values where it gives them. */
  message: string;
}
export const VIOLATED = "violated";

/** Told how every write ended, by the write's label (writeLabels): the metrics' seam. */
export interface WriteObserver {
  settled(write: string, seconds: number, outcome: string): void;
  failed(write: string, seconds: number, error: unknown): void;
}

export interface WritePath {
  /** Resolves once the batch holding the write has committed. */
  run<N extends WriteName>(name: N, args: WriteArgs<N>): Promise<WriteResult<N>>;
  /** Adds an observer of every write; returns what removes it. */
  observe(observer: WriteObserver): () => void;
  /** Resolves once every submitted write has settled. */
  drain(): Promise<void>;
}

export interface WritePathOptions {
  /** Applies a batch in order, in one transaction; one result per write, in the same order. */
  execute(batch: readonly Write[]): Promise<readonly unknown[]>;
  /** Batches committing at once: 1 for a write thread, more for a pool. */
  maxInFlight: number;
  /** Most writes in one batch, which bounds one transaction's size and time. */
  maxBatch: number;
  /** The declared tables: their references order writes, their nouns label them. */
  tables: readonly Table[];
}

export function createWritePath(options: WritePathOptions): WritePath {
  const observers = new Set<WriteObserver>();
  const labelOf = writeLabels(options.tables);
  const batcher = createBatcher<Write, unknown>({
    write: options.execute,
    maxInFlight: options.maxInFlight,
    maxBatch: options.maxBatch,
    keysOf: writeKeys(options.tables),
  });
  return {
    run<N extends WriteName>(name: N, args: WriteArgs<N>): Promise<WriteResult<N>> {
      const started = performance.now();
      const write = { name, args } as Write;
      const seconds = () => (performance.now() - started) / 1000;
      const failed = (error: unknown) => {
        for (const observer of observers) observer.failed(labelOf(write), seconds(), error);
        throw error;
      };
      return batcher.submit(write).then((result) => {
        const { outcome } = result as { outcome: string };
        if (outcome === VIOLATED) {
          const { message } = result as Violated;
          return failed(new ConstraintViolationError(`the store refused the write: ${message}`));
        }
        for (const observer of observers) observer.settled(labelOf(write), seconds(), outcome);
        return result as WriteResult<N>;
      }, failed);
    },
    observe(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
    drain: () => batcher.drain(),
  };
}
