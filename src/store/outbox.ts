// The outbox: what each write tells webhook receivers. A write's events are recorded by the
// write path in the write's own transaction, one row per event whatever the number of
// endpoints; the deliverer fans each out to the endpoints later (a claim), so a create costs
// the same with one endpoint as with a thousand. A new event is one entry below.
import { newPlantBody } from "./webhooks.ts";
import type { Write, WriteArgs, WriteName, WriteResult } from "./writes.ts";

/** One event as stored: its webhook (the YAML's `webhooks` key), what it is about, its JSON. */
export interface OutboxEvent {
  type: string;
  /** The row the event is about (a delivery's `plantId`), or null. */
  subjectId: bigint | null;
  /** The exact JSON every endpoint is sent. */
  body: string;
}

const EVENTS: { [N in WriteName]?: (args: WriteArgs<N>, result: WriteResult<N>) => OutboxEvent[] } =
  {
    createPlant: (plant, { outcome }) =>
      outcome === "created"
        ? [{ type: "newPlant", subjectId: plant.id, body: newPlantBody(plant) }]
        : [],
  };

/** The events a write recorded, given its result. */
export function eventsOf(write: Write, result: unknown): OutboxEvent[] {
  const events = EVENTS[write.name] as
    | ((args: unknown, result: unknown) => OutboxEvent[])
    | undefined;
  return events === undefined ? [] : events(write.args, result);
}
