// The webhook writes of src/store/webhooks.ts on SQLite, run on the write thread inside a batch's
// transaction. Times are milliseconds of this machine's clock. A claim moves a delivery's
// next_attempt_at to the end of its lease, so one partial index (pending, by endpoint and due
// time) serves both "what is due" and "whose lease ran out".
import type { Database } from "better-sqlite3";
import {
  type ClaimedDelivery,
  ENDPOINT_DISABLED,
  EVENT_UNSUBSCRIBED,
  FAN_OUT_ROWS,
  type RetiredSecret,
  retiredAfterRotation,
  signingSecrets,
  type WebhookDelivery,
} from "../webhooks.ts";
import type { WriteArgs, WriteResult } from "../writes.ts";

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

type Prepare<N extends WebhookWriteName> = (db: Database) => (args: WriteArgs<N>) => WriteResult<N>;

/** A webhook_deliveries row as SQLite gives it. */
export interface SqliteDeliveryRow {
  id: string;
  endpoint_id: string;
  event: string;
  plant_id: bigint;
  status: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: number | null;
  created_at: number;
}

export const deliveryFromSqlite = (row: SqliteDeliveryRow): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  event: row.event,
  plantId: BigInt(row.plant_id),
  status: row.status as WebhookDelivery["status"],
  attempts: Number(row.attempts),
  lastStatus: row.last_status === null ? null : Number(row.last_status),
  lastError: row.last_error,
  nextAttemptAt:
    row.status === "pending" && row.next_attempt_at !== null
      ? new Date(Number(row.next_attempt_at))
      : null,
  createdAt: new Date(Number(row.created_at)),
});

/** Deliveries with what their event is about; `WHERE` on `d.` columns may follow. */
export const SELECT_DELIVERIES = `
  SELECT d.id, d.endpoint_id, ev.type AS event, ev.subject_id AS plant_id, d.status, d.attempts,
         d.last_status,
         d.last_error, d.next_attempt_at, d.created_at
  FROM webhook_deliveries AS d JOIN webhook_events AS ev ON ev.id = d.event_id`;

export const sqliteWebhookWrites: { [N in WebhookWriteName]: Prepare<N> } = {
  createWebhookEndpoint(db) {
    const insert = db.prepare<[string, string, string | null, string, number]>(
      `INSERT INTO webhook_endpoints (id, url, description, secret, created_at, first_event_id)
       VALUES (?, ?, ?, ?, ?, ${NEXT_EVENT_ID})`,
    );
    const count = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM webhook_endpoints");
    const subscribe = subscriptions(db);
    return ({ id, url, description, secret, createdAt, events, maxEndpoints }) => {
      if ((count.get()?.n ?? 0) >= maxEndpoints) return { outcome: "full" };
      insert.run(id, url, description, secret, createdAt);
      subscribe(id, events);
      return { outcome: "created" };
    };
  },
  updateWebhookEndpoint(db) {
    const exists = db.prepare<[string]>("SELECT 1 FROM webhook_endpoints WHERE id = ?");
    const describe = db.prepare<[string | null, string]>(
      "UPDATE webhook_endpoints SET description = ? WHERE id = ?",
    );
    const subscribe = subscriptions(db);
    // What is queued of an event dropped goes, saying why, claimed or not: a claim's outcome is
    // then lost (complete matches its owner), as when its lease runs out.
    const unqueue = db.prepare<[string, number, string, string]>(
      `UPDATE webhook_deliveries
       SET status = 'failed', last_error = ?, next_attempt_at = NULL, lease_until = NULL,
           lease_owner = NULL, updated_at = ?
       WHERE endpoint_id = ? AND status = 'pending'
         AND (SELECT type FROM webhook_events WHERE id = event_id)
             NOT IN (SELECT value FROM json_each(?))`,
    );
    return ({ id, events, description }) => {
      if (exists.get(id) === undefined) return { outcome: "absent" };
      if (description !== undefined) describe.run(description, id);
      if (events !== undefined) {
        subscribe(id, events);
        unqueue.run(EVENT_UNSUBSCRIBED, Date.now(), id, JSON.stringify(events));
      }
      return { outcome: "updated" };
    };
  },
  deleteWebhookEndpoint(db) {
    const deliveries = db
      .prepare<[string], number>(
        "DELETE FROM webhook_deliveries WHERE endpoint_id = ? RETURNING event_id",
      )
      .pluck();
    const endpoint = db.prepare<[string]>("DELETE FROM webhook_endpoints WHERE id = ?");
    const unsubscribe = db.prepare<[string]>(
      "DELETE FROM webhook_subscriptions WHERE endpoint_id = ?",
    );
    const unsent = eventsWithoutDeliveries(db);
    return ({ id }) => {
      unsent(deliveries.all(id));
      unsubscribe.run(id);
      return { outcome: endpoint.run(id).changes === 1 ? "deleted" : "absent" };
    };
  },
  rotateWebhookSecret(db) {
    const read = db.prepare<[string], { secret: string; retired_secrets: string }>(
      "SELECT secret, retired_secrets FROM webhook_endpoints WHERE id = ?",
    );
    const rotate = db.prepare<[string, string, string]>(
      "UPDATE webhook_endpoints SET secret = ?, retired_secrets = ? WHERE id = ?",
    );
    return ({ id, secret, overlapMs }) => {
      const row = read.get(id);
      if (row === undefined) return { outcome: "absent" };
      const retired = retiredAfterRotation(
        row.secret,
        JSON.parse(row.retired_secrets) as RetiredSecret[],
        Date.now(),
        overlapMs,
      );
      if (retired === undefined) return { outcome: "full" };
      rotate.run(secret, JSON.stringify(retired), id);
      return { outcome: "rotated" };
    };
  },
  fanOutWebhookEvents(db) {
    const fanOut = sqliteFanOut(db);
    return () => ({ outcome: "fanned", count: fanOut(Date.now()) });
  },
  claimWebhookDeliveries(db) {
    // Round the endpoints: those after `after` first, then the rest (ClaimRequest.after).
    const endpoints = db.prepare<
      [string],
      {
        id: string;
        url: string;
        secret: string;
        retired_secrets: string;
      }
    >(
      `SELECT id, url, secret, retired_secrets
       FROM webhook_endpoints WHERE disabled_at IS NULL ORDER BY id > ? DESC, id`,
    );
    // The partial index webhook_deliveries_due: a range scan per endpoint, whatever the backlog.
    const due = db.prepare<
      [string, number, number],
      { id: string; type: string; body: string; attempts: number }
    >(
      `SELECT d.id, ev.type, ev.body, d.attempts
       FROM webhook_deliveries AS d JOIN webhook_events AS ev ON ev.id = d.event_id
       WHERE d.endpoint_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ?
       ORDER BY d.next_attempt_at LIMIT ?`,
    );
    const fanOut = sqliteFanOut(db);
    const lease = db.prepare<[number, number, string, string]>(
      `UPDATE webhook_deliveries SET next_attempt_at = ?, lease_until = ?, lease_owner = ?
       WHERE id = ?`,
    );
    return ({ owner, leaseMs, limit, perEndpoint, free, after }) => {
      const now = Date.now();
      fanOut(now);
      const claimed: ClaimedDelivery[] = [];
      for (const endpoint of endpoints.all(after ?? "")) {
        const room = Math.min(free[endpoint.id] ?? perEndpoint, limit - claimed.length);
        if (room <= 0) continue;
        const secrets = signingSecrets(
          endpoint.secret,
          JSON.parse(endpoint.retired_secrets) as RetiredSecret[],
          now,
        );
        for (const row of due.all(endpoint.id, now, room)) {
          lease.run(now + leaseMs, now + leaseMs, owner, row.id);
          claimed.push({
            id: row.id,
            event: row.type,
            endpointId: endpoint.id,
            url: endpoint.url,
            body: row.body,
            attempts: Number(row.attempts),
            secrets,
          });
        }
        if (claimed.length >= limit) break;
      }
      return { outcome: "claimed", deliveries: claimed };
    };
  },
  completeWebhookDelivery(db) {
    const record = db.prepare<
      [string, number | null, string | null, number | null, number, string, string]
    >(
      `UPDATE webhook_deliveries
       SET status = ?, attempts = attempts + 1, last_status = ?, last_error = ?,
           next_attempt_at = ?, lease_until = NULL, lease_owner = NULL, updated_at = ?
       WHERE id = ? AND lease_owner = ?`,
    );
    const disable = db.prepare<[number, string]>(
      `UPDATE webhook_endpoints SET disabled_at = ?
       WHERE disabled_at IS NULL AND id = (SELECT endpoint_id FROM webhook_deliveries WHERE id = ?)`,
    );
    // Its other pending deliveries leave the backlog, saying why; a retry brings one back.
    const failOthers = db.prepare<[string, number, string, string]>(
      `UPDATE webhook_deliveries
       SET status = 'failed', last_error = ?, next_attempt_at = NULL, lease_until = NULL,
           lease_owner = NULL, updated_at = ?
       WHERE endpoint_id = (SELECT endpoint_id FROM webhook_deliveries WHERE id = ?)
         AND status = 'pending' AND id <> ?`,
    );
    return ({ id, owner, record: r }) => {
      const now = Date.now();
      const status =
        r.kind === "delivered" ? "delivered" : r.kind === "retry" ? "pending" : "failed";
      const error = r.kind === "retry" || r.kind === "failed" ? r.error : null;
      const next = r.kind === "retry" ? now + r.delayMs : null;
      const changed = record.run(status, r.status, error, next, now, id, owner).changes === 1;
      if (changed && r.kind === "gone") {
        disable.run(now, id);
        failOthers.run(ENDPOINT_DISABLED, now, id, id);
      }
      return { outcome: changed ? "recorded" : "lost" };
    };
  },
  releaseWebhookDeliveries(db) {
    const release = db.prepare<[number, string, string]>(
      `UPDATE webhook_deliveries SET next_attempt_at = ?, lease_until = NULL, lease_owner = NULL
       WHERE id = ? AND lease_owner = ? AND status = 'pending'`,
    );
    return ({ owner, ids }) => {
      const now = Date.now();
      for (const id of ids) release.run(now, id, owner);
      return { outcome: "released" };
    };
  },
  retryWebhookDelivery(db) {
    const retry = db.prepare<[number, number, string, string]>(
      `UPDATE webhook_deliveries
       SET status = 'pending', attempts = 0, next_attempt_at = ?, lease_until = NULL,
           lease_owner = NULL, updated_at = ?
       WHERE id = ? AND endpoint_id = ?`,
    );
    const select = db
      .prepare<[string], SqliteDeliveryRow>(`${SELECT_DELIVERIES} WHERE d.id = ?`)
      .safeIntegers(true);
    const enable = db.prepare<[string]>(
      "UPDATE webhook_endpoints SET disabled_at = NULL WHERE id = ?",
    );
    return ({ endpointId, id }) => {
      const now = Date.now();
      if (retry.run(now, now, id, endpointId).changes === 0) return { outcome: "absent" };
      const row = select.get(id);
      if (row === undefined) throw new Error(`delivery ${id} vanished after its retry`);
      enable.run(endpointId);
      return { outcome: "retried", delivery: deliveryFromSqlite(row) };
    };
  },
  purgeWebhookDeliveries(db) {
    const purge = db
      .prepare<[number, number], number>(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < ? LIMIT ?)
         RETURNING event_id`,
      )
      .pluck();
    const unsent = eventsWithoutDeliveries(db);
    return ({ before, limit }) => {
      const events = purge.all(before, limit);
      unsent(events);
      return { outcome: "purged", count: events.length };
    };
  },
};

/** The id the next event recorded takes: AUTOINCREMENT never takes one again. */
const NEXT_EVENT_ID =
  "coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'webhook_events'), 0) + 1";

/**
 * Sets the endpoint's subscriptions to `events`: one it had keeps where it started, one new
 * starts with the next event recorded, one left out goes.
 */
function subscriptions(db: Database): (id: string, events: readonly string[]) => void {
  const drop = db.prepare<[string, string]>(
    `DELETE FROM webhook_subscriptions
     WHERE endpoint_id = ? AND type NOT IN (SELECT value FROM json_each(?))`,
  );
  const add = db.prepare<[string, string]>(
    `INSERT INTO webhook_subscriptions (endpoint_id, type, first_event_id)
     SELECT ?, ?, ${NEXT_EVENT_ID} WHERE true ON CONFLICT DO NOTHING`,
  );
  return (id, events) => {
    drop.run(id, JSON.stringify(events));
    for (const type of events) add.run(id, type);
  };
}

/** Deletes those of the given events (fanned out) that have no delivery left. */
function eventsWithoutDeliveries(db: Database): (ids: readonly number[]) => void {
  const remove = db.prepare<[{ id: number }]>(
    `DELETE FROM webhook_events WHERE id = @id AND fanned_out = 1
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = @id)`,
  );
  return (ids) => {
    for (const id of new Set(ids)) remove.run({ id });
  };
}

/**
 * Fans the oldest events out into one pending delivery per enabled endpoint subscribed to its
 * type before it was recorded, at most FAN_OUT_ROWS deliveries at a time (always one event); how many it made.
 * Delivery ids sort by their event's time, as the delivery log lists them.
 */
function sqliteFanOut(db: Database): (now: number) => number {
  const enabled = db
    .prepare<[], number>("SELECT count(*) FROM webhook_endpoints WHERE disabled_at IS NULL")
    .pluck();
  const upTo = db
    .prepare<[number], number | null>(
      `SELECT max(id) FROM (
         SELECT id FROM webhook_events WHERE fanned_out = 0 ORDER BY id LIMIT ?)`,
    )
    .pluck();
  // CROSS JOIN keeps the events outside, read from webhook_events_unfanned, then each one's
  // subscribers by webhook_subscriptions_type: joined the other way round, SQLite built an
  // index over every event for each claim (a million: seconds).
  const insert = db.prepare<[{ now: number; last: number }]>(
    `INSERT INTO webhook_deliveries
       (id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
     SELECT printf('msg_%012x', ev.created_at) || lower(hex(randomblob(10))), e.id, ev.id,
            'pending', 0, @now, ev.created_at, @now
     FROM webhook_events AS ev CROSS JOIN webhook_subscriptions AS s
       CROSS JOIN webhook_endpoints AS e
     WHERE ev.fanned_out = 0 AND ev.id <= @last
       AND s.type = ev.type AND s.first_event_id <= ev.id
       AND e.id = s.endpoint_id AND e.disabled_at IS NULL`,
  );
  const mark = db.prepare<[number]>(
    "UPDATE webhook_events SET fanned_out = 1 WHERE fanned_out = 0 AND id <= ?",
  );
  const unsent = db.prepare<[number]>(
    `DELETE FROM webhook_events WHERE fanned_out = 0 AND id <= ?
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = webhook_events.id)`,
  );
  return (now) => {
    const last = upTo.get(Math.max(1, Math.floor(FAN_OUT_ROWS / Math.max(1, enabled.get() ?? 0))));
    if (last === null || last === undefined) return 0;
    const made = insert.run({ now, last }).changes;
    // An event no endpoint was to get is done with at once.
    unsent.run(last);
    mark.run(last);
    return made;
  };
}
