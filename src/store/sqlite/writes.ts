// The writes of src/store/writes.ts on SQLite: for each, its statements, prepared once on the
// write thread's connection (a table's rows: rows.ts; webhooks: webhook-writes.ts), and what it
// does with one submitted write inside its batch's transaction. The thread runs whatever is
// listed here by name.
import type { Database } from "better-sqlite3";
import type { OutboxEvent } from "../outbox.ts";
import type { DataDeclaration } from "../tables.ts";
import type { WriteArgs, WriteName, WriteResult } from "../writes.ts";
import { sqliteRowWrites } from "./rows.ts";
import { sqliteWebhookWrites } from "./webhook-writes.ts";

export type SqliteWrites = { [N in WriteName]: (args: WriteArgs<N>) => WriteResult<N> };

export function sqliteWrites(db: Database, data: DataDeclaration): SqliteWrites {
  const tables = new Map(
    data.tables.map((table) => [table.name, sqliteRowWrites(db, table, data.tables)]),
  );
  const rowsOf = (name: string) => {
    const rows = tables.get(name);
    if (rows === undefined) throw new Error(`no declared table ${name}`);
    return rows;
  };
  const webhooks = Object.fromEntries(
    Object.entries(sqliteWebhookWrites).map(([name, prepare]) => [
      name,
      (prepare as (db: Database) => unknown)(db),
    ]),
  ) as Omit<SqliteWrites, "createRow" | "updateRow" | "deleteRow">;
  return {
    createRow: (args) => rowsOf(args.table).createRow(args),
    updateRow: (args) => rowsOf(args.table).updateRow(args),
    deleteRow: (args) => rowsOf(args.table).deleteRow(args),
    ...webhooks,
  };
}

/**
 * Records a write's events (outbox.ts) in its transaction: one row each, and none while no
 * enabled endpoint subscribes to its type.
 */
export function recordSqliteEvents(db: Database): (events: readonly OutboxEvent[]) => void {
  const insert = db.prepare<[string, bigint | null, string, number, string]>(
    `INSERT INTO webhook_events (type, subject_id, body, created_at)
     SELECT ?, ?, ?, ? WHERE EXISTS (
       SELECT 1 FROM webhook_subscriptions AS s
       JOIN webhook_endpoints AS e ON e.id = s.endpoint_id
       WHERE s.type = ? AND e.disabled_at IS NULL)`,
  );
  return (events) => {
    for (const { type, subjectId, body } of events) {
      insert.run(type, subjectId, body, Date.now(), type);
    }
  };
}

/**
 * Whether any enabled endpoint subscribes to an event type, asked once a type within one
 * transaction (which holds the file's write lock, so only its own writes change the answer): a
 * create then builds no event body while nobody would be sent it. The answer is forgotten when a
 * transaction starts and after any write other than a row's (which may subscribe, unsubscribe or
 * disable an endpoint). recordSqliteEvents checks again as it inserts.
 */
export function sqliteSubscriptions(db: Database): {
  wanted: (type: string) => boolean;
  forget: () => void;
} {
  const select = db
    .prepare<[string], number>(
      `SELECT EXISTS (
         SELECT 1 FROM webhook_subscriptions AS s
         JOIN webhook_endpoints AS e ON e.id = s.endpoint_id
         WHERE s.type = ? AND e.disabled_at IS NULL)`,
    )
    .pluck();
  const known = new Map<string, boolean>();
  return {
    wanted(type) {
      let answer = known.get(type);
      if (answer === undefined) {
        answer = select.get(type) === 1;
        known.set(type, answer);
      }
      return answer;
    },
    forget: () => known.clear(),
  };
}
