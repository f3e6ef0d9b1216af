// The webhook writes of src/store/webhooks.ts on PostgreSQL, inside a batch's transaction. Times
// are the server's clock (clock_timestamp(), so that every instance shares one clock). A claim
// moves next_attempt_at to its lease's end and skips rows another instance holds locked
// (FOR UPDATE SKIP LOCKED), so instances never claim one delivery at once; a claim whose lease
// ran out is due again and taken over.

import {
  type ClaimedDelivery,
  ENDPOINT_DISABLED,
  EVENT_UNSUBSCRIBED,
  FAN_OUT_ROWS,
  type RetiredSecret,
  retiredAfterRotation,
  type WebhookDelivery,
} from "../webhooks.ts";
import type { WriteArgs, WriteResult } from "../writes.ts";
import type { PostgresTransaction } from "./writes.ts";

type WebhookWriteName =
  | "createWebhookEndpoint"
  | "updateWebhookEndpoint"
  | "deleteWebhookEndpoint"
  | "rotateWebhookSecret"
  | "fanOutWebhookEvents"
  | "claimWebhookDeliveries"
  | "completeWebhookDelivery"
  | "releaseWebhookDeliveries"
  | "retryWebhookDelivery"
  | "purgeWebhookDeliveries";

type ApplyRun<N extends WebhookWriteName> = (
  tx: PostgresTransaction,
  run: readonly WriteArgs<N>[],
) => Promise<WriteResult<N>[]>;

/** A webhook_deliveries row as postgres.js gives it. */
export interface PostgresDeliveryRow {
  id: string;
  endpoint_id: string;
  event: string;
  plant_id: bigint;
  status: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
}

export const deliveryFromPostgres = (row: PostgresDeliveryRow): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  event: row.event,
  plantId: BigInt(row.plant_id),
  status: row.status as WebhookDelivery["status"],
  attempts: Number(row.attempts),
  lastStatus: row.last_status === null ? null : Number(row.last_status),
  lastError: row.last_error,
  nextAttemptAt: row.status === "pending" ? row.next_attempt_at : null,
  createdAt: row.created_at,
});

/** A delivery's columns with its event's subject, from `d` and `ev`. */
export const DELIVERY_COLUMNS = `d.id, d.endpoint_id, ev.type AS event, ev.subject_id AS plant_id,
  d.status, d.attempts, d.last_status, d.last_error, d.next_attempt_at, d.created_at`;

/**
 * Fans the oldest events out into one pending delivery per enabled endpoint subscribed to its
 * type before it was recorded, at most FAN_OUT_ROWS deliveries at a time (always one event); how
 * many it made. Events another instance is fanning out are skipped; the endpoints are held (FOR
 * KEY SHARE) so that a delete or a change of subscriptions waits.
 */
async function fanOut(tx: PostgresTransaction): Promise<number> {
  const [row] = await tx<{ made: number; unsent: string[] }[]>`
    WITH events AS (
      UPDATE webhook_events SET fanned_out = true
      WHERE id IN (
        SELECT id FROM webhook_events WHERE NOT fanned_out ORDER BY id
        LIMIT greatest(1, ${FAN_OUT_ROWS}::int4 / greatest(1, (
          SELECT count(*) FROM webhook_endpoints WHERE disabled_at IS NULL)::int4))
        FOR UPDATE SKIP LOCKED)
      RETURNING id, type, created_at
    ), endpoints AS (
      SELECT id, first_event_id FROM webhook_endpoints WHERE disabled_at IS NULL FOR KEY SHARE
    ), made AS (
      INSERT INTO webhook_deliveries
        (id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
      SELECT 'msg_' || lpad(to_hex((extract(epoch FROM ev.created_at) * 1000)::int8), 12, '0')
               || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20),
             e.id, ev.id, 'pending', 0, clock_timestamp(), ev.created_at, clock_timestamp()
      FROM events AS ev
        JOIN webhook_subscriptions AS s ON s.type = ev.type AND s.first_event_id <= ev.id
        JOIN endpoints AS e ON e.id = s.endpoint_id
      RETURNING event_id
    )
    SELECT (SELECT count(*) FROM made)::int4 AS made,
           array(SELECT ev.id::text FROM events AS ev
                 WHERE NOT EXISTS (SELECT 1 FROM made WHERE made.event_id = ev.id)) AS unsent`;
  // An event no endpoint was to get is done with at once.
  if (row !== undefined && row.unsent.length > 0) {
    await tx`DELETE FROM webhook_events WHERE id = ANY(${row.unsent}::int8[])`;
  }
  return row?.made ?? 0;
}

/**
 * Sets the endpoint's subscriptions to `events`: one it had keeps where it started, one new
 * starts with the next event recorded (the sequence never goes back), one left out goes.
 */
async function subscribe(tx: PostgresTransaction, id: string, events: readonly string[]) {
  await tx`DELETE FROM webhook_subscriptions
           WHERE endpoint_id = ${id} AND NOT (type = ANY(${[...events]}::text[]))`;
  await tx`INSERT INTO webhook_subscriptions (endpoint_id, type, first_event_id)
           SELECT ${id}, type, nextval('webhook_events_id_seq')
           FROM unnest(${[...events]}::text[]) AS t(type)
           ON CONFLICT DO NOTHING`;
}

/**
 * Taken before a transaction deletes deliveries, by every such write: two that delete deliveries
 * of one event at once would each still see the other's uncommitted rows and both keep the
 * event. Held to the commit, so the next one's check sees what this one deleted.
 */
const lockEventCleanup = (tx: PostgresTransaction) =>
  tx`SELECT pg_advisory_xact_lock(hashtext('plantstore:webhook-event-cleanup'))`;

/**
 * Deletes those of the given events that have no delivery left. A statement of its own: in the
 * deleting statement, the deleted deliveries would still be seen.
 */
async function eventsWithoutDeliveries(
  tx: PostgresTransaction,
  gone: readonly { event_id: string }[],
): Promise<void> {
  if (gone.length === 0) return;
  await tx`
    DELETE FROM webhook_events AS ev
    WHERE ev.id = ANY(${[...new Set(gone.map((row) => row.event_id))]}::int8[]) AND ev.fanned_out
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries AS d WHERE d.event_id = ev.id)`;
}

/** Each write of the run in turn: these are rare next to creates, one statement or two each. */
const oneByOne =
  <N extends WebhookWriteName>(
    apply: (tx: PostgresTransaction, args: WriteArgs<N>) => Promise<WriteResult<N>>,
  ): ApplyRun<N> =>
  async (tx, run) => {
    const results: WriteResult<N>[] = [];
    for (const args of run) results.push(await apply(tx, args));
    return results;
  };

const ms = (value: number) => `${value} milliseconds`;

export const postgresWebhookWrites: { [N in WebhookWriteName]: ApplyRun<N> } = {
  createWebhookEndpoint: oneByOne(
    async (tx, { id, url, description, secret, createdAt, events, maxEndpoints }) => {
      // Registrations of every instance one at a time, so the count holds until the insert.
      await tx`SELECT pg_advisory_xact_lock(hashtext('plantstore:webhook-endpoints'))`;
      const [held] = await tx<{ n: number }[]>`SELECT count(*)::int4 AS n FROM webhook_endpoints`;
      if ((held?.n ?? 0) >= maxEndpoints) return { outcome: "full" };
      // It gets every event recorded from now on: the sequence never goes back, whatever the
      // clocks of the instances say.
      await tx`INSERT INTO webhook_endpoints
                 (id, url, description, secret, created_at, first_event_id)
               VALUES (${id}, ${url}, ${description}, ${secret}, ${new Date(createdAt)},
                       nextval('webhook_events_id_seq'))`;
      await subscribe(tx, id, events);
      return { outcome: "created" };
    },
  ),
  updateWebhookEndpoint: oneByOne(async (tx, { id, events, description }) => {
    // Held, so that a fan-out (FOR KEY SHARE) sees the subscriptions before or after, not half.
    const [found] = await tx`SELECT id FROM webhook_endpoints WHERE id = ${id} FOR UPDATE`;
    if (found === undefined) return { outcome: "absent" };
    if (description !== undefined) {
      await tx`UPDATE webhook_endpoints SET description = ${description} WHERE id = ${id}`;
    }
    if (events === undefined) return { outcome: "updated" };
    await subscribe(tx, id, events);
    // What is queued of an event dropped goes, saying why, claimed or not: a claim's outcome is
    // then lost (complete matches its owner), as when its lease runs out. A fan-out under way
    // holds the endpoint (FOR KEY SHARE), so what it makes is committed and seen here.
    await tx`UPDATE webhook_deliveries AS d
             SET status = 'failed', last_error = ${EVENT_UNSUBSCRIBED}, next_attempt_at = NULL,
                 lease_until = NULL, lease_owner = NULL, updated_at = clock_timestamp()
             FROM webhook_events AS ev
             WHERE d.endpoint_id = ${id} AND d.status = 'pending' AND ev.id = d.event_id
               AND NOT (ev.type = ANY(${[...events]}::text[]))`;
    return { outcome: "updated" };
  }),
  deleteWebhookEndpoint: oneByOne(async (tx, { id }) => {
    await lockEventCleanup(tx);
    await tx`DELETE FROM webhook_subscriptions WHERE endpoint_id = ${id}`;
    // The endpoint next: a fan-out holding it (FOR KEY SHARE) commits before, and the
    // deliveries' DELETE then sees what it made.
    const { count } = await tx`DELETE FROM webhook_endpoints WHERE id = ${id}`;
    const gone = await tx<{ event_id: string }[]>`
      DELETE FROM webhook_deliveries WHERE endpoint_id = ${id} RETURNING event_id::text`;
    await eventsWithoutDeliveries(tx, gone);
    return { outcome: count === 1 ? "deleted" : "absent" };
  }),
  rotateWebhookSecret: oneByOne(async (tx, { id, secret, overlapMs }) => {
    const [row] = await tx<{ secret: string; retired: RetiredSecret[]; now: string }[]>`
      SELECT secret, retired_secrets AS retired,
             (extract(epoch FROM clock_timestamp()) * 1000)::int8::text AS now
      FROM webhook_endpoints WHERE id = ${id} FOR UPDATE`;
    if (row === undefined) return { outcome: "absent" };
    const retired = retiredAfterRotation(row.secret, row.retired, Number(row.now), overlapMs);
    if (retired === undefined) return { outcome: "full" };
    await tx`UPDATE webhook_endpoints SET secret = ${secret}, retired_secrets = ${tx.json(retired as never)}
             WHERE id = ${id}`;
    return { outcome: "rotated" };
  }),
  fanOutWebhookEvents: oneByOne(async (tx) => ({ outcome: "fanned", count: await fanOut(tx) })),
  claimWebhookDeliveries: oneByOne(
    async (tx, { owner, leaseMs, limit, perEndpoint, free, after }) => {
      await fanOut(tx);
      const busy = Object.keys(free);
      // Per endpoint, an index range scan of its due deliveries (webhook_deliveries_due), at most
      // its free slots, so that one endpoint's backlog never fills a claim meant for all.
      const rows = await tx<
        {
          id: string;
          endpoint_id: string;
          type: string;
          body: string;
          attempts: number;
          url: string;
          secrets: string[];
        }[]
      >`
      WITH slots AS (
        SELECT e.id, e.url, e.id > ${after ?? ""} AS later,
               ARRAY[e.secret] || ARRAY(
                 SELECT r->>'secret' FROM jsonb_array_elements(e.retired_secrets) AS r
                 WHERE (r->>'until')::int8 > extract(epoch FROM clock_timestamp()) * 1000
               ) AS secrets,
               coalesce(s.free, ${perEndpoint}::int4) AS free
        FROM webhook_endpoints e
        LEFT JOIN unnest(${busy}::text[], ${busy.map((id) => free[id] ?? 0)}::int4[])
          AS s(id, free) ON s.id = e.id
        WHERE e.disabled_at IS NULL
      ), picked AS (
        SELECT d.id, d.event_id, slots.url, slots.secrets
        FROM slots CROSS JOIN LATERAL (
          SELECT id, event_id FROM webhook_deliveries
          WHERE endpoint_id = slots.id AND status = 'pending'
            AND next_attempt_at <= clock_timestamp()
          ORDER BY next_attempt_at LIMIT slots.free
          FOR UPDATE SKIP LOCKED) AS d
        -- Round the endpoints: those after the last claim's first, then the rest.
        ORDER BY slots.later DESC, slots.id
        LIMIT ${limit}::int4
      )
      UPDATE webhook_deliveries AS d
      SET next_attempt_at = clock_timestamp() + ${ms(leaseMs)}::interval,
          lease_until = clock_timestamp() + ${ms(leaseMs)}::interval, lease_owner = ${owner}
      FROM picked JOIN webhook_events AS ev ON ev.id = picked.event_id
      WHERE d.id = picked.id
      RETURNING d.id, d.endpoint_id, ev.type, ev.body, d.attempts, picked.url, picked.secrets`;
      const deliveries: ClaimedDelivery[] = rows.map((row) => ({
        id: row.id,
        event: row.type,
        endpointId: row.endpoint_id,
        url: row.url,
        body: row.body,
        attempts: Number(row.attempts),
        secrets: [...row.secrets],
      }));
      return { outcome: "claimed", deliveries };
    },
  ),
  completeWebhookDelivery: oneByOne(async (tx, { id, owner, record: r }) => {
    const status = r.kind === "delivered" ? "delivered" : r.kind === "retry" ? "pending" : "failed";
    const error = r.kind === "retry" || r.kind === "failed" ? r.error : null;
    const delay = r.kind === "retry" ? ms(r.delayMs) : null;
    const changed = await tx<{ endpoint_id: string }[]>`
      UPDATE webhook_deliveries
      SET status = ${status}, attempts = attempts + 1, last_status = ${r.status},
          last_error = ${error},
          next_attempt_at = clock_timestamp() + ${delay}::interval,
          lease_until = NULL, lease_owner = NULL, updated_at = clock_timestamp()
      WHERE id = ${id} AND lease_owner = ${owner}
      RETURNING endpoint_id`;
    const [row] = changed;
    if (row !== undefined && r.kind === "gone") {
      await tx`UPDATE webhook_endpoints SET disabled_at = clock_timestamp()
               WHERE id = ${row.endpoint_id} AND disabled_at IS NULL`;
      // Its other pending deliveries leave the backlog, saying why; a retry brings one back.
      await tx`UPDATE webhook_deliveries
               SET status = 'failed', last_error = ${ENDPOINT_DISABLED}, next_attempt_at = NULL,
                   lease_until = NULL, lease_owner = NULL, updated_at = clock_timestamp()
               WHERE endpoint_id = ${row.endpoint_id} AND status = 'pending' AND id <> ${id}`;
    }
    return { outcome: row === undefined ? "lost" : "recorded" };
  }),
  releaseWebhookDeliveries: oneByOne(async (tx, { owner, ids }) => {
    await tx`
      UPDATE webhook_deliveries
      SET next_attempt_at = clock_timestamp(), lease_until = NULL, lease_owner = NULL
      WHERE id = ANY(${[...ids]}::text[]) AND lease_owner = ${owner} AND status = 'pending'`;
    return { outcome: "released" };
  }),
  retryWebhookDelivery: oneByOne(async (tx, { endpointId, id }) => {
    const [row] = await tx<PostgresDeliveryRow[]>`
      UPDATE webhook_deliveries AS d
      SET status = 'pending', attempts = 0, next_attempt_at = clock_timestamp(),
          lease_until = NULL, lease_owner = NULL, updated_at = clock_timestamp()
      FROM webhook_events AS ev
      WHERE d.id = ${id} AND d.endpoint_id = ${endpointId} AND ev.id = d.event_id
      RETURNING ${tx.unsafe(DELIVERY_COLUMNS)}`;
    if (row === undefined) return { outcome: "absent" };
    await tx`UPDATE webhook_endpoints SET disabled_at = NULL WHERE id = ${endpointId}`;
    return { outcome: "retried", delivery: deliveryFromPostgres(row) };
  }),
  purgeWebhookDeliveries: oneByOne(async (tx, { before, limit }) => {
    await lockEventCleanup(tx);
    const gone = await tx<{ event_id: string }[]>`
      DELETE FROM webhook_deliveries WHERE id IN (
        SELECT id FROM webhook_deliveries
        WHERE status <> 'pending' AND updated_at < ${new Date(before)}
        LIMIT ${limit}::int4)
      RETURNING event_id::text`;
    await eventsWithoutDeliveries(tx, gone);
    return { outcome: "purged", count: gone.length };
  }),
};
