// The writes of src/store/writes.ts on PostgreSQL: for each, how a run of them (consecutive
// writes of one name, and of one table for a row's, in a batch) is applied inside the batch's
// transaction, in as few statements as it can, with one result per write in the order given
// (a table's rows: rows.ts; webhooks: webhook-writes.ts).
import type { TransactionSql } from "postgres";
import type { OutboxEvent } from "../outbox.ts";
import type { DataDeclaration } from "../tables.ts";
import type { RowWrites, WriteArgs, WriteName, WriteResult } from "../writes.ts";
import { postgresRowWrites } from "./rows.ts";
import { postgresWebhookWrites } from "./webhook-writes.ts";

export type PostgresTransaction = TransactionSql<{ bigint: bigint }>;

export type ApplyRun<N extends WriteName> = (
  tx: PostgresTransaction,
  run: readonly WriteArgs<N>[],
) => Promise<WriteResult<N>[]>;

export type PostgresWrites = { [N in WriteName]: ApplyRun<N> };

/** Every write, each table's rows' writes made once; a run of row writes is of one table. */
export function postgresWrites(data: DataDeclaration): PostgresWrites {
  const tables = new Map(
    data.tables.map((table) => [table.name, postgresRowWrites(table, data.tables)]),
  );
  const onTable =
    <N extends keyof RowWrites>(name: N): ApplyRun<N> =>
    (tx, run) => {
      const table = run[0]?.table ?? "";
      const rows = tables.get(table);
      if (rows === undefined) throw new Error(`no declared table ${table}`);
      return (rows[name] as ApplyRun<N>)(tx, run);
    };
  return {
    createRow: onTable("createRow"),
    updateRow: onTable("updateRow"),
    deleteRow: onTable("deleteRow"),
    ...postgresWebhookWrites,
  };
}

/**
 * Records a batch's events (outbox.ts) in its transaction: one INSERT, one row each, and none
 * while no enabled endpoint subscribes to its type.
 */
export async function recordPostgresEvents(
  tx: PostgresTransaction,
  events: readonly OutboxEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await tx`
    INSERT INTO webhook_events (type, subject_id, body, created_at)
    SELECT type, subject_id, body, clock_timestamp()
    FROM unnest(${events.map((e) => e.type)}::text[],
                ${events.map((e) => (e.subjectId === null ? null : String(e.subjectId)))}::int8[],
                ${events.map((e) => e.body)}::text[]) WITH ORDINALITY AS t(type, subject_id, body, n)
    WHERE EXISTS (
      SELECT 1 FROM webhook_subscriptions AS s
      JOIN webhook_endpoints AS e ON e.id = s.endpoint_id
      WHERE s.type = t.type AND e.disabled_at IS NULL)
    ORDER BY n`;
}
