// Messages between the SQLite store (main thread) and the thread that owns its write
// connection (sqlite-writer-thread.ts). A batch travels as columns, ids in a BigInt64Array
// whose buffer is transferred, not copied: cloning one object per row showed in profiles.
// Creates and deletes share a batch and are applied in the order they were submitted.
import type { DeleteOutcome, RowOutcome } from "./batch-outcome.ts";

export interface PlantRow {
  id: bigint;
  name: string;
  tag: string | null;
}

/** One write: a create (a row to insert), or the delete of an id. */
export type PlantWrite = PlantRow | { id: bigint; delete: true };

export interface BatchColumns {
  ids: BigInt64Array<ArrayBuffer>;
  /** 1 where the write is a delete (its name and tag are unused). */
  deletes: Uint8Array<ArrayBuffer>;
  names: string[];
  tags: (string | null)[];
}

/**
 * Per write, 1 if it changed the table (a row inserted or deleted); for creates that did not,
 * what was already stored, by index.
 */
export interface BatchOutcomes {
  changed: Uint8Array<ArrayBuffer>;
  stored: [index: number, name: string, tag: string | null][];
}

export function toColumns(writes: readonly PlantWrite[]): BatchColumns {
  const ids = new BigInt64Array(writes.length);
  const deletes = new Uint8Array(writes.length);
  const names: string[] = [];
  const tags: (string | null)[] = [];
  for (const [index, write] of writes.entries()) {
    ids[index] = write.id;
    if ("delete" in write) {
      deletes[index] = 1;
      names.push("");
      tags.push(null);
    } else {
      names.push(write.name);
      tags.push(write.tag);
    }
  }
  return { ids, deletes, names, tags };
}

export function fromOutcomes(
  deletes: Uint8Array,
  { changed, stored }: BatchOutcomes,
): (RowOutcome | DeleteOutcome)[] {
  const outcomes: (RowOutcome | DeleteOutcome)[] = Array.from(changed, (flag, index) =>
    deletes[index] === 1 ? { deleted: flag === 1 } : { inserted: true },
  );
  for (const [index, name, tag] of stored) outcomes[index] = { inserted: false, name, tag };
  return outcomes;
}

export type ToWriter =
  | ({ kind: "batch"; seq: number } & BatchColumns)
  /** A test write (one row of plantstore_probe), to see whether the store can write again. */
  | { kind: "probe"; seq: number }
  /** Finish the batch in hand, close the connection, and exit. */
  | { kind: "close" };

export type FromWriter =
  | { kind: "ready" }
  | ({ kind: "done"; seq: number } & BatchOutcomes)
  | { kind: "probed"; seq: number }
  | { kind: "failed"; seq: number; code: string | undefined; message: string }
  | { kind: "open-failed"; code: string | undefined; message: string };

export interface WriterData {
  path: string;
  /** The file the main thread opened (sqlite-file.ts); writes stop if the path names another. */
  fileIdentity: string;
}

/** SQLite's own code for a database file unlinked or moved while open, which WAL mode misses. */
export const FILE_MOVED_CODE = "SQLITE_READONLY_DBMOVED";
