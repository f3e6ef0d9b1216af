// Messages between the SQLite store (main thread) and the thread that owns its write
// connection (sqlite-writer-thread.ts). A batch travels as columns, ids in a BigInt64Array
// whose buffer is transferred, not copied: cloning one object per row showed in profiles.
import type { RowOutcome } from "./batch-outcome.ts";

export interface PlantRow {
  id: bigint;
  name: string;
  tag: string | null;
}

export interface BatchColumns {
  ids: BigInt64Array<ArrayBuffer>;
  names: string[];
  tags: (string | null)[];
}

/** Per row, 1 if inserted now; for the others, what was already stored, by row index. */
export interface BatchOutcomes {
  inserted: Uint8Array<ArrayBuffer>;
  stored: [index: number, name: string, tag: string | null][];
}

export function toColumns(rows: readonly PlantRow[]): BatchColumns {
  const ids = new BigInt64Array(rows.length);
  for (const [index, row] of rows.entries()) ids[index] = row.id;
  return { ids, names: rows.map((row) => row.name), tags: rows.map((row) => row.tag) };
}

export function fromOutcomes({ inserted, stored }: BatchOutcomes): RowOutcome[] {
  const outcomes: RowOutcome[] = Array.from(inserted, () => ({ inserted: true }));
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
  busyTimeoutMs: number;
  /** The file the main thread opened (sqlite-file.ts); writes stop if the path names another. */
  fileIdentity: string;
}

/** SQLite's own code for a database file unlinked or moved while open, which WAL mode misses. */
export const FILE_MOVED_CODE = "SQLITE_READONLY_DBMOVED";
