// The thread that owns the SQLite write connection. Each batch is one transaction and one
// fsync (synchronous=FULL); the commit blocks this thread, never the event loop that serves
// requests. Rows are applied in order, so two creates of one id in a batch meet exactly as
// they would one after the other.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { configureWriterConnection } from "./sqlite-connection.ts";
import { fileIdentity } from "./sqlite-file.ts";
import {
  type BatchColumns,
  type BatchOutcomes,
  FILE_MOVED_CODE,
  type FromWriter,
  type ToWriter,
  type WriterData,
} from "./sqlite-writer-protocol.ts";

const port = parentPort;
if (port === null) throw new Error("sqlite-writer-thread.ts runs only as a worker thread");
const { path, fileIdentity: opened } = workerData as WriterData;
const send = (message: FromWriter) => port.postMessage(message);

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
};

interface Connection {
  db: Database.Database;
  apply: (batch: BatchColumns) => BatchOutcomes;
  probe: () => void;
}

/**
 * Throws unless the path still names the file this thread opened. Checked before a batch (so
 * nothing is written to a file that is gone) and after its commit (so nothing written to one
 * is acknowledged).
 */
function checkFile(): void {
  if (fileIdentity(path) !== opened) {
    throw Object.assign(new Error(`the SQLite file ${path} was deleted or replaced while open`), {
      code: FILE_MOVED_CODE,
    });
  }
}

/** `work` between two checks of the file. */
function onSameFile<T>(work: () => T): T {
  checkFile();
  const result = work();
  checkFile();
  return result;
}

function open(): Connection {
  const db = new Database(path, { fileMustExist: true });
  try {
    // The main thread created and migrated the file in WAL mode; the rest is per connection.
    configureWriterConnection(db);
    const insert = db.prepare<[bigint, string, string | null]>(
      "INSERT INTO plants (id, name, tag) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
    );
    const select = db.prepare<[bigint], { name: string; tag: string | null }>(
      "SELECT name, tag FROM plants WHERE id = ?",
    );
    const remove = db.prepare<[bigint]>("DELETE FROM plants WHERE id = ?");
    const transaction = db.transaction((batch: BatchColumns): BatchOutcomes => {
      const { ids, deletes, names, tags } = batch;
      const changed = new Uint8Array(ids.length);
      const stored: BatchOutcomes["stored"] = [];
      for (const [index, id] of ids.entries()) {
        if (deletes[index] === 1) {
          changed[index] = remove.run(id).changes === 1 ? 1 : 0;
          continue;
        }
        if (insert.run(id, names[index] ?? "", tags[index] ?? null).changes === 1) {
          changed[index] = 1;
          continue;
        }
        const existing = select.get(id);
        if (existing === undefined) throw new Error(`plant ${id} vanished after a conflict`);
        stored.push([index, existing.name, existing.tag]);
      }
      return { changed, stored };
    });
    const touch = db.prepare<[number]>(
      "INSERT INTO plantstore_probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at",
    );
    const probe = db.transaction(() => touch.run(Date.now()));
    checkFile();
    // BEGIN IMMEDIATE: the write lock is taken at the start, so a busy file fails the whole
    // batch before anything is applied rather than half-way through.
    return {
      db,
      apply: (batch) => onSameFile(() => transaction.immediate(batch)),
      probe: () => onSameFile(() => probe.immediate()),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

let connection: Connection | undefined;
try {
  connection = open();
} catch (error) {
  // Closing the port (not exiting) lets this message arrive before the thread ends.
  send({ kind: "open-failed", code: codeOf(error), message: String(error) });
  port.close();
}

if (connection !== undefined) {
  const { db, apply, probe } = connection;
  port.on("message", (message: ToWriter) => {
    if (message.kind === "close") {
      db.close();
      port.close();
      return;
    }
    try {
      if (message.kind === "probe") {
        probe();
        send({ kind: "probed", seq: message.seq });
        return;
      }
      const outcomes = apply(message);
      port.postMessage({ kind: "done", seq: message.seq, ...outcomes } satisfies FromWriter, [
        outcomes.changed.buffer,
      ]);
    } catch (error) {
      send({ kind: "failed", seq: message.seq, code: codeOf(error), message: String(error) });
    }
  });
  send({ kind: "ready" });
}
