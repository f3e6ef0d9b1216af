// Messages between the SQLite store (main thread) and the thread that owns its write
// connection (writer-thread.ts). A batch is a list of named writes (src/store/writes.ts),
// applied in order in one transaction; the answer holds one result per write.
import type { DataDeclaration } from "../tables.ts";
import type { Write } from "../writes.ts";

export type ToWriter =
  | { kind: "batch"; seq: number; writes: readonly Write[] }
  /** A test write (one row of plantstore_probe), to see whether the store can write again. */
  | { kind: "probe"; seq: number }
  /** Finish the batch in hand, close the connection, and exit. */
  | { kind: "close" };

export type FromWriter =
  | { kind: "ready" }
  | { kind: "done"; seq: number; results: readonly unknown[] }
  | { kind: "failed"; seq: number; code: string | undefined; message: string }
  | { kind: "open-failed"; code: string | undefined; message: string };

export interface WriterData {
  path: string;
  /** The document's tables and events: the thread prepares each table's writes once. */
  data: DataDeclaration;
  /** The file the main thread opened (file.ts); writes stop if the path names another. */
  fileIdentity: string;
}

/** SQLite's own code for a database file unlinked or moved while open, which WAL mode misses. */
export const FILE_MOVED_CODE = "SQLITE_READONLY_DBMOVED";
