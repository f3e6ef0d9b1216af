// Messages between the SQLite store (main thread) and the thread that owns its write
// connection (writer-thread.ts). A batch is a list of named writes (src/store/writes.ts),
// applied in order in one transaction; the answer holds one result per write. Each way a batch
// is one message, and a message is cloned whole (structured clone): so a write travels as a
// number naming it (with its table) and its arguments without the table, and a result the caller
// reads only the outcome of (a create's `created`) travels as that outcome alone.
import type { DataDeclaration } from "../tables.ts";
import { WEBHOOK_WRITE_KEYS } from "../webhooks.ts";
import type { Write, WriteName } from "../writes.ts";

export type ToWriter =
  /** Writes as encodeWrites lays them out. */
  | { kind: "batch"; seq: number; writes: unknown[] }
  /** A test write (one row of plantstore_probe), to see whether the store can write again. */
  | { kind: "probe"; seq: number }
  /** Finish the batch in hand, close the connection, and exit. */
  | { kind: "close" };

export type FromWriter =
  | { kind: "ready" }
  /** Results as encodeResults lays them out. */
  | { kind: "done"; seq: number; results: unknown[] }
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

/** A write as it travels: which one (and on which table), and what it is given. */
interface Form {
  name: WriteName;
  /** The table of a row's write; its arguments travel without it. */
  table?: string;
}

/** Every write the declaration allows, numbered alike on both threads. */
function forms(data: DataDeclaration): Form[] {
  const rowWrites = ["createRow", "updateRow", "deleteRow"] as const;
  return [
    ...data.tables.flatMap((table) => rowWrites.map((name) => ({ name, table: table.name }))),
    ...(Object.keys(WEBHOOK_WRITE_KEYS) as WriteName[]).map((name) => ({ name })),
  ];
}

/** The main thread's side: a batch to send, and the results it gets back. */
export function mainSide(data: DataDeclaration): {
  encodeWrites(writes: readonly Write[]): unknown[];
  decodeResults(results: readonly unknown[]): unknown[];
} {
  const numbers = new Map(
    forms(data).map((form, number) => [`${form.name}:${form.table ?? ""}`, number]),
  );
  /** One result object per outcome, shared: a caller reads results, never changes them. */
  const outcomes = new Map<string, Readonly<{ outcome: string }>>();
  const outcome = (name: string) => {
    let result = outcomes.get(name);
    if (result === undefined) {
      result = Object.freeze({ outcome: name });
      outcomes.set(name, result);
    }
    return result;
  };
  return {
    // [number, arguments, number, arguments, …]: one array, nothing a write.
    encodeWrites(writes) {
      const encoded: unknown[] = [];
      for (const write of writes) {
        const table = "table" in write.args ? write.args.table : "";
        const number = numbers.get(`${write.name}:${table}`);
        if (number === undefined) throw new Error(`no SQLite write ${write.name} ${table}`);
        encoded.push(number, tableless(write));
      }
      return encoded;
    },
    decodeResults: (results) =>
      results.map((result) => (typeof result === "string" ? outcome(result) : result)),
  };
}

/** A write's arguments without its table (which its number says). */
function tableless(write: Write): unknown {
  switch (write.name) {
    case "createRow":
      return write.args.row;
    case "updateRow":
      return [write.args.key, write.args.patch];
    case "deleteRow":
      return write.args.key;
    default:
      return write.args;
  }
}

/** The write thread's side: the batch it was sent, and the results it sends back. */
export function threadSide(data: DataDeclaration): {
  decodeWrites(encoded: readonly unknown[]): Write[];
  encodeResults(results: readonly unknown[]): unknown[];
} {
  const all = forms(data);
  const decode = (number: unknown, args: unknown): Write => {
    const form = all[number as number];
    if (form === undefined) throw new Error(`no SQLite write numbered ${String(number)}`);
    const { name, table } = form;
    if (table === undefined) return { name, args } as Write;
    if (name === "createRow") return { name, args: { table, row: args as Write["args"] } } as Write;
    if (name === "deleteRow") return { name, args: { table, key: args } };
    const [key, patch] = args as [unknown, Record<string, unknown>];
    return { name: "updateRow", args: { table, key, patch } };
  };
  return {
    decodeWrites(encoded) {
      const writes: Write[] = [];
      for (let at = 0; at < encoded.length; at += 2)
        writes.push(decode(encoded[at], encoded[at + 1]));
      return writes;
    },
    // A result that is its outcome alone goes as that outcome's name.
    encodeResults: (results) =>
      results.map((result) => (outcomeAlone(result) ? result.outcome : result)),
  };
}

function outcomeAlone(result: unknown): result is { outcome: string } {
  if (typeof (result as { outcome?: unknown }).outcome !== "string") return false;
  for (const key in result as object) if (key !== "outcome") return false;
  return true;
}
