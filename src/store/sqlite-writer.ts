// The main thread's handle on the SQLite write thread (sqlite-writer-thread.ts): started on
// the first write, one batch in flight at a time, restarted if it ever dies.
import { Worker } from "node:worker_threads";
import type { RowOutcome } from "./batch-outcome.ts";
import {
  type FromWriter,
  fromOutcomes,
  type PlantRow,
  type ToWriter,
  toColumns,
  type WriterData,
} from "./sqlite-writer-protocol.ts";
import { StoreUnavailableError } from "./store.ts";

export interface SqliteWriter {
  write(rows: readonly PlantRow[]): Promise<readonly RowOutcome[]>;
  close(): Promise<void>;
}

const THREAD_ENTRY = new URL("./sqlite-writer-thread.mjs", import.meta.url);

interface Pending {
  resolve: (outcomes: readonly RowOutcome[]) => void;
  reject: (error: unknown) => void;
}

export function createSqliteWriter(data: WriterData): SqliteWriter {
  let worker: Worker | undefined;
  let closed = false;
  let seq = 0;
  const pending = new Map<number, Pending>();

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  const start = (): Worker => {
    const thread = new Worker(THREAD_ENTRY, { workerData: data satisfies WriterData });
    thread.on("message", (message: FromWriter) => {
      if (message.kind === "ready") return;
      if (message.kind === "open-failed") {
        failAll(writeError(message.code, `cannot open the SQLite file: ${message.message}`));
        return;
      }
      const waiting = pending.get(message.seq);
      pending.delete(message.seq);
      if (message.kind === "done") waiting?.resolve(fromOutcomes(message));
      else waiting?.reject(writeError(message.code, message.message));
    });
    thread.on("error", (error) =>
      failAll(new Error(`the SQLite write thread failed: ${String(error)}`, { cause: error })),
    );
    thread.on("exit", () => {
      if (worker === thread) worker = undefined;
      // Whatever it had not answered did not commit (SQLite rolls back an open transaction).
      failAll(new StoreUnavailableError("the SQLite write thread stopped"));
    });
    return thread;
  };

  return {
    write(rows) {
      if (closed) return Promise.reject(new StoreUnavailableError("the store is closed"));
      worker ??= start();
      const current = worker;
      const id = ++seq;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        const columns = toColumns(rows);
        current.postMessage({ kind: "batch", seq: id, ...columns } satisfies ToWriter, [
          columns.ids.buffer,
        ]);
      });
    },
    async close() {
      closed = true;
      const thread = worker;
      if (thread === undefined) return;
      const exited = new Promise((resolve) => thread.once("exit", resolve));
      // Queued after every batch already sent, so those commit and are answered first.
      thread.postMessage({ kind: "close" } satisfies ToWriter);
      await exited;
    },
  };
}

// Another process held the write lock past busy_timeout: the file is busy, not broken.
function writeError(code: string | undefined, message: string): Error {
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") {
    return new StoreUnavailableError(`the SQLite file stayed locked: ${message}`);
  }
  return Object.assign(new Error(`SQLite write failed: ${message}`), { code });
}
