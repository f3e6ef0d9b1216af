// Messages between the SQLite store (main thread) and the thread that owns its write
// connection (sqlite-writer-thread.ts). bigint survives postMessage unchanged.
import type { RowOutcome } from "./batch-outcome.ts";

export type { RowOutcome };

export interface PlantRow {
  id: bigint;
  name: string;
  tag: string | null;
}

export type ToWriter =
  | { kind: "batch"; seq: number; rows: readonly PlantRow[] }
  /** Finish the batch in hand, close the connection, and exit. */
  | { kind: "close" };

export type FromWriter =
  | { kind: "ready" }
  | { kind: "done"; seq: number; outcomes: readonly RowOutcome[] }
  | { kind: "failed"; seq: number; code: string | undefined; message: string }
  | { kind: "open-failed"; code: string | undefined; message: string };

export interface WriterData {
  path: string;
  busyTimeoutMs: number;
}
