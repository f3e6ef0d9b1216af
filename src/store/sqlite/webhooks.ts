// The reads of a WebhookStore on SQLite (its writes are webhookStore's, on the write path).
import type { Database } from "better-sqlite3";
import { BACKLOG_COUNTED_UP_TO, type WebhookEndpoint, type WebhookReads } from "../webhooks.ts";
import { deliveryFromSqlite, SELECT_DELIVERIES, type SqliteDeliveryRow } from "./webhook-writes.ts";

interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  created_at: number;
  disabled_at: number | null;
  /** A JSON array of its event types, sorted. */
  events: string;
}

const ENDPOINT_COLUMNS = `id, url, description, created_at, disabled_at,
  (SELECT json_group_array(type) FROM (
     SELECT type FROM webhook_subscriptions WHERE endpoint_id = webhook_endpoints.id
     ORDER BY type)) AS events`;

const endpointFrom = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  createdAt: new Date(row.created_at),
  disabledAt: row.disabled_at === null ? null : new Date(row.disabled_at),
  events: JSON.parse(row.events) as string[],
});

export function sqliteWebhookReads(
  db: Database,
  asStoreErrors: <T>(work: () => T) => T,
): WebhookReads {
  const one = db.prepare<[string], EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`,
  );
  const page = db.prepare<[string, number], EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id > ? ORDER BY id LIMIT ?`,
  );
  const deliveries = db
    .prepare<[string, string, number], SqliteDeliveryRow>(
      `${SELECT_DELIVERIES} WHERE d.endpoint_id = ? AND d.id > ? ORDER BY d.id LIMIT ?`,
    )
    .safeIntegers(true);
  // Counted up to a bound (a read on the event loop), the oldest by its index; an event not
  // fanned out yet counts as one.
  const backlog = db.prepare<[], { pending: number; oldest: number | null }>(
    `SELECT (SELECT count(*) FROM (
               SELECT 1 FROM webhook_deliveries WHERE status = 'pending'
               UNION ALL SELECT 1 FROM webhook_events WHERE fanned_out = 0
               LIMIT ${BACKLOG_COUNTED_UP_TO})) AS pending,
            (SELECT min(created_at) FROM (
               SELECT min(created_at) AS created_at FROM webhook_deliveries
               WHERE status = 'pending'
               UNION ALL SELECT * FROM (SELECT created_at FROM webhook_events
                                        WHERE fanned_out = 0 ORDER BY id LIMIT 1))) AS oldest`,
  );
  // An event to fan out is due now; else, per endpoint, the first entry of its range of
  // webhook_deliveries_due.
  const nextDue = db.prepare<[], { due: number | null; unfanned: number }>(
    `SELECT min((SELECT min(next_attempt_at) FROM webhook_deliveries AS d
                 WHERE d.endpoint_id = e.id AND d.status = 'pending')) AS due,
            EXISTS (SELECT 1 FROM webhook_events WHERE fanned_out = 0) AS unfanned
     FROM webhook_endpoints AS e WHERE e.disabled_at IS NULL`,
  );
  return {
    async nextDueInMs() {
      const row = asStoreErrors(() => nextDue.get());
      if (row?.unfanned === 1) return 0;
      const due = row?.due ?? null;
      return due === null ? null : due - Date.now();
    },
    async getEndpoint(id) {
      const row = asStoreErrors(() => one.get(id));
      return row === undefined ? undefined : endpointFrom(row);
    },
    async listEndpoints({ after, limit }) {
      const rows = asStoreErrors(() => page.all(after ?? "", limit));
      return { endpoints: rows.map(endpointFrom), full: rows.length >= limit };
    },
    async listDeliveries(endpointId, { after, limit }) {
      return asStoreErrors(() => {
        if (one.get(endpointId) === undefined) return undefined;
        const rows = deliveries.all(endpointId, after ?? "", limit);
        return { deliveries: rows.map(deliveryFromSqlite), full: rows.length >= limit };
      });
    },
    async backlog() {
      const row = asStoreErrors(() => backlog.get());
      const oldest = row?.oldest ?? null;
      return {
        pending: row?.pending ?? 0,
        oldestCreatedAt: oldest === null ? null : new Date(oldest),
      };
    },
  };
}
