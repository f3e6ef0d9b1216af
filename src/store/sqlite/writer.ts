// The main thread's handle on the SQLite write thread (writer-thread.ts): started on
// the first write, taking batches and probes in order (a probe waits behind the batch being
// committed), restarted if it ever dies.
import { Worker } from "node:worker_threads";
import { StoreUnavailableError } from "../store.ts";
import type { Write } from "../writes.ts";
import { sqliteStoreError } from "./errors.ts";
import { type FromWriter, mainSide, type ToWriter, type WriterData } from "./writer-protocol.ts";

export interface SqliteWriter {
  /** Applies the writes in order, in one transaction; one result per write. */
  write(writes: readonly Write[]): Promise<readonly unknown[]>;
  /** A test write that commits (one row of plantstore_probe); rejects as a write would. */
  probe(): Promise<void>;
  /** Starts the thread if need be; resolves once it holds an open connection, else rejects. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const THREAD_ENTRY = new URL("./writer-thread.mjs", import.meta.url);

type Results = readonly unknown[];

interface Pending {
  resolve: (results: Results) => void;
  reject: (error: unknown) => void;
}

interface Running {
  thread: Worker;
  ready: Promise<void>;
  /** The batches this thread has not answered yet. */
  pending: Map<number, Pending>;
}

export function createSqliteWriter(data: WriterData): SqliteWriter {
  let running: Running | undefined;
  let closed = false;
  let seq = 0;
  const { encodeWrites, decodeResults } = mainSide(data.data);

  const start = (): Running => {
    const pending = new Map<number, Pending>();
    const thread = new Worker(THREAD_ENTRY, { workerData: data satisfies WriterData });
    let opened: (() => void) | undefined;
    let failed: ((error: Error) => void) | undefined;
    const ready = new Promise<void>((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    // Whoever asks for readiness sees the failure; a pending write sees it through fail.
    ready.catch(() => undefined);
    // The thread is done for: later writes start a new one rather than post to this one,
    // and what it had not answered fails with this error.
    const fail = (error: Error) => {
      if (running?.thread === thread) running = undefined;
      failed?.(error);
      for (const { reject } of pending.values()) reject(error);
      pending.clear();
    };
    thread.on("message", (message: FromWriter) => {
      if (message.kind === "ready") opened?.();
      else if (message.kind === "open-failed") {
        fail(writeError(message.code, `cannot open the SQLite file: ${message.message}`));
      } else {
        const waiting = pending.get(message.seq);
        pending.delete(message.seq);
        if (message.kind === "done") waiting?.resolve(decodeResults(message.results));
        else waiting?.reject(writeError(message.code, message.message));
      }
    });
    // The thread is gone either way; SQLite rolls back the transaction it had open, so
    // nothing it had not answered is stored, and the same creates may be sent again.
    thread.on("error", (error) =>
      fail(new StoreUnavailableError(`the SQLite write thread failed: ${String(error)}`)),
    );
    thread.on("exit", () => fail(new StoreUnavailableError("the SQLite write thread stopped")));
    return { thread, ready, pending };
  };

  /** Sends one message that the thread answers by its seq, and waits for that answer. */
  const ask = (message: (seq: number) => ToWriter): Promise<Results> => {
    if (closed) return Promise.reject(new StoreUnavailableError("the store is closed"));
    running ??= start();
    const { thread, pending } = running;
    const sent = message(++seq);
    return new Promise((resolve, reject) => {
      pending.set(seq, { resolve, reject });
      thread.postMessage(sent);
    });
  };

  return {
    write(writes) {
      return ask((id) => ({ kind: "batch", seq: id, writes: encodeWrites(writes) }));
    },
    async probe() {
      await ask((id) => ({ kind: "probe", seq: id }));
    },
    ready() {
      if (closed) return Promise.reject(new StoreUnavailableError("the store is closed"));
      running ??= start();
      return running.ready;
    },
    async close() {
      closed = true;
      const thread = running?.thread;
      if (thread === undefined) return;
      const exited = new Promise((resolve) => thread.once("exit", resolve));
      // Queued after every batch already sent, so those commit and are answered first.
      thread.postMessage({ kind: "close" } satisfies ToWriter);
      await exited;
    },
  };
}

function writeError(code: string | undefined, message: string): Error {
  return (
    sqliteStoreError(code, message) ??
    Object.assign(new Error(`SQLite write failed: ${message}`), { code })
  );
}
