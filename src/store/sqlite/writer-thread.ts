// The thread that owns the SQLite write connection. Each batch is one transaction and one
// fsync (synchronous=FULL); the commit blocks this thread, never the event loop that serves
// requests. Writes are applied in order, so two writes of one id in a batch meet exactly as
// they would one after the other. What a write does is its entry in writes.ts.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { outbox } from "../outbox.ts";
import { ROW_WRITES, VIOLATED, type Violated, type Write } from "../writes.ts";
import { configureWriterConnection } from "./connection.ts";
import { fileIdentity } from "./file.ts";
import {
  FILE_MOVED_CODE,
  type FromWriter,
  type ToWriter,
  threadSide,
  type WriterData,
} from "./writer-protocol.ts";
import { recordSqliteEvents, sqliteSubscriptions, sqliteWrites } from "./writes.ts";

const port = parentPort;
if (port === null) throw new Error("writer-thread.ts runs only as a worker thread");
const { path, fileIdentity: opened, data } = workerData as WriterData;
const send = (message: FromWriter) => port.postMessage(message);
const { decodeWrites, encodeResults } = threadSide(data);

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
};

/** A rule of the schema broken: a foreign key, a check, a unique key, a trigger's RAISE. */
const isViolation = (error: unknown): boolean =>
  codeOf(error)?.startsWith("SQLITE_CONSTRAINT") === true;

interface Connection {
  db: Database.Database;
  apply: (writes: readonly Write[]) => unknown[];
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
    const run = sqliteWrites(db, data) as unknown as Record<string, (args: unknown) => unknown>;
    const eventsOf = outbox(data);
    const record = recordSqliteEvents(db);
    const subscriptions = sqliteSubscriptions(db);
    const applyOne = (submitted: Write): unknown => {
      const write = run[submitted.name];
      if (write === undefined) throw new Error(`no SQLite write named ${submitted.name}`);
      if (!(submitted.name in ROW_WRITES)) {
        try {
          return write(submitted.args);
        } finally {
          subscriptions.forget();
        }
      }
      const result = write(submitted.args);
      record(eventsOf(submitted, result, subscriptions.wanted));
      return result;
    };
    const transaction = db.transaction((writes: readonly Write[]) => {
      subscriptions.forget();
      return writes.map(applyOne);
    });
    // A batch in which a write broke a rule of the schema, again: each write in a savepoint of
    // its own (a nested transaction), so that one alone is refused (writes.ts).
    const inSavepoint = db.transaction(applyOne);
    const oneByOne = db.transaction((writes: readonly Write[]) => {
      subscriptions.forget();
      return writes.map((submitted) => {
        try {
          return inSavepoint(submitted);
        } catch (error) {
          if (!isViolation(error)) throw error;
          return {
            outcome: VIOLATED,
            message: String((error as Error).message),
          } satisfies Violated;
        }
      });
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
      apply: (batch) =>
        onSameFile(() => {
          try {
            return transaction.immediate(batch);
          } catch (error) {
            if (!isViolation(error)) throw error;
            return oneByOne.immediate(batch);
          }
        }),
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
        send({ kind: "done", seq: message.seq, results: [] });
        return;
      }
      const results = apply(decodeWrites(message.writes));
      send({ kind: "done", seq: message.seq, results: encodeResults(results) });
    } catch (error) {
      send({ kind: "failed", seq: message.seq, code: codeOf(error), message: String(error) });
    }
  });
  send({ kind: "ready" });
}
