// The store's one write path. Every write is named and listed here with its arguments and
// result; each engine implements the list (sqlite-writes.ts, postgres-writes.ts) and runs what
// is submitted in group-commit batches, one transaction a batch, in the order submitted. A new
// write — another table, or a row written beside a plant in the same transaction — is one more
// entry here and one in each engine's list: the write thread's protocol, the batcher and the
// metrics do not change. A write reports what it found (a conflict, nothing to delete) as its
// result; a write that breaks a rule of the schema (a foreign key, a check) is refused alone:
// each engine applies that batch again with every write in a savepoint of its own and reports
// VIOLATED for that one, which the caller gets as a ConstraintViolationError (409). Any other
// error fails the whole batch, as a failed commit would.
import { createBatcher } from "./batcher.ts";
import { ConstraintViolationError, type PlantPatch } from "./store.ts";
import { WEBHOOK_WRITE_KEYS, type WebhookWrites } from "./webhooks.ts";

/** A plant as written: no tag is null. */
export interface PlantRow {
  id: bigint;
  name: string;
  tag: string | null;
}

export type CreateOutcome =
  | { outcome: "created" }
  /** The id was taken: by the same plant (a replay) or another; nothing was changed. */
  | { outcome: "replayed" | "conflict"; name: string; tag: string | null };

export interface DeleteOutcome {
  outcome: "deleted" | "absent";
}

/** A change of one plant: its id and the patch (store.ts) to apply to it. */
export interface PlantChange extends PlantPatch {
  id: bigint;
}

export type UpdateOutcome =
  /** The plant as stored after the change. */
  { outcome: "updated"; name: string; tag: string | null } | { outcome: "absent" };

/** Every write: its arguments and its result. The result's `outcome` labels its metrics. */
export interface Writes extends WebhookWrites {
  createPlant: { args: PlantRow; result: CreateOutcome };
  deletePlant: { args: { id: bigint }; result: DeleteOutcome };
  updatePlant: { args: PlantChange; result: UpdateOutcome };
}

export type WriteName = keyof Writes;
export type WriteArgs<N extends WriteName> = Writes[N]["args"];
export type WriteResult<N extends WriteName> = Writes[N]["result"];

/** One submitted write, as a batch carries it. */
export type Write = { [N in WriteName]: { name: N; args: WriteArgs<N> } }[WriteName];

/**
 * What each write touches: its own row's key, and the key of every row it reads or names (a
 * child's create names its parent: `[child:C, parent:P]`, and the parent's delete has
 * `parent:P`). Writes sharing a key are applied in the order they were submitted, on every
 * engine, even where batches commit side by side (PostgreSQL's pool).
 */
const WRITE_KEYS: { [N in WriteName]: (args: WriteArgs<N>) => string | readonly string[] } = {
  createPlant: (plant) => `plant:${plant.id}`,
  deletePlant: ({ id }) => `plant:${id}`,
  updatePlant: ({ id }) => `plant:${id}`,
  ...WEBHOOK_WRITE_KEYS,
};

/** What the metrics count of writes, beside timing each: a counter a write's outcome adds to. */
export const WRITE_COUNTERS: readonly {
  name: string;
  help: string;
  write: WriteName;
  outcome: string;
}[] = [
  {
    name: "plantstore_plants_created_total",
    help: "Plants stored for the first time (replays and conflicts not counted)",
    write: "createPlant",
    outcome: "created",
  },
];

/** The result of a write that broke a rule of the schema, as an engine reports it. */
export interface Violated {
  outcome: typeof VIOLATED;
  /** The database's words: the rule, and the values where it gives them. */
  message: string;
}
export const VIOLATED = "violated";

/** Told how every write ended: the metrics' seam. */
export interface WriteObserver {
  settled(write: WriteName, seconds: number, outcome: string): void;
  failed(write: WriteName, seconds: number, error: unknown): void;
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
}

export function createWritePath(options: WritePathOptions): WritePath {
  const observers = new Set<WriteObserver>();
  const batcher = createBatcher<Write, unknown>({
    write: options.execute,
    maxInFlight: options.maxInFlight,
    maxBatch: options.maxBatch,
    keysOf: (write) => {
      const keys = (WRITE_KEYS[write.name] as (args: unknown) => string | readonly string[])(
        write.args,
      );
      return typeof keys === "string" ? [keys] : keys;
    },
  });
  return {
    run<N extends WriteName>(name: N, args: WriteArgs<N>): Promise<WriteResult<N>> {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      const failed = (error: unknown) => {
        for (const observer of observers) observer.failed(name, seconds(), error);
        throw error;
      };
      return batcher.submit({ name, args } as Write).then((result) => {
        const { outcome } = result as { outcome: string };
        if (outcome === VIOLATED) {
          const { message } = result as Violated;
          return failed(new ConstraintViolationError(`the store refused the write: ${message}`));
        }
        for (const observer of observers) observer.settled(name, seconds(), outcome);
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
