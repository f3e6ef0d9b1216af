// The outbox: what each write tells webhook receivers, as the document declares it (`x-event`
// on a webhook: the table, and the write that sends it). A write's events are recorded by the
// write path in the write's own transaction, one row per event whatever the number of
// endpoints; the deliverer fans each out to the endpoints later (a claim), so a create costs the
// same with one endpoint as with a thousand. A new event is a declaration in the YAML, no code.
import { jsonText } from "./json-values.ts";
import type { DataDeclaration, EventDeclaration, Row } from "./tables.ts";
import type { Write } from "./writes.ts";

/** One event as stored: its type (the declaration's), what it is about, its JSON. */
export interface OutboxEvent {
  type: string;
  /** The key of the row the event is about, when it is an integer (a delivery's `plantId`). */
  subjectId: bigint | null;
  /** The exact JSON every endpoint is sent. */
  body: string;
}

/**
 * The events of a write, given its result: a function made once from the declaration. With
 * `wanted`, only the events of the types it accepts (an engine that knows no endpoint subscribes
 * to a type builds no body for it).
 */
export type EventsOf = (
  write: Write,
  result: unknown,
  wanted?: (type: string) => boolean,
) => OutboxEvent[];

export function outbox(data: DataDeclaration): EventsOf {
  const byWrite = new Map<string, { event: EventDeclaration; key: string }[]>();
  for (const event of data.events) {
    const key = data.tables.find((table) => table.name === event.table)?.key ?? "";
    const at = `${event.on}:${event.table}`;
    byWrite.set(at, [...(byWrite.get(at) ?? []), { event, key }]);
  }
  const recorded = (
    action: string,
    table: string,
    row: Row,
    wanted: ((type: string) => boolean) | undefined,
  ): OutboxEvent[] =>
    (byWrite.get(`${action}:${table}`) ?? [])
      .filter(({ event }) => wanted?.(event.type) ?? true)
      .map(({ event, key }) => {
        const subject = row[key];
        return {
          type: event.type,
          subjectId: typeof subject === "bigint" ? subject : null,
          body: eventBody(event, row),
        };
      });
  return (write, result, wanted) => {
    const { outcome, row } = result as { outcome: string; row?: Row };
    switch (write.name) {
      case "createRow":
        return outcome === "created"
          ? recorded("create", write.args.table, write.args.row, wanted)
          : [];
      case "updateRow":
        return outcome === "updated" && row
          ? recorded("update", write.args.table, row, wanted)
          : [];
      case "deleteRow":
        return outcome === "deleted" && row
          ? recorded("delete", write.args.table, row, wanted)
          : [];
      default:
        return [];
    }
  };
}

/** The event's body: the row's members it declares, in the table's order, int64s exact. */
export function eventBody(event: EventDeclaration, row: Row): string {
  const body: Row = {};
  for (const member of event.members) {
    if (row[member] !== undefined) body[member] = row[member];
  }
  return jsonText(body);
}
