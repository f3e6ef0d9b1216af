// The reads of a WebhookStore on PostgreSQL (its writes are webhookStore's, on the write path).

import { BACKLOG_COUNTED_UP_TO, type WebhookEndpoint, type WebhookReads } from "../webhooks.ts";
import type { BoundedCalls } from "./deadlines.ts";
import { asStoreError } from "./errors.ts";
import {
  DELIVERY_COLUMNS,
  deliveryFromPostgres,
  type PostgresDeliveryRow,
} from "./webhook-writes.ts";

interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  created_at: Date;
  disabled_at: Date | null;
  events: string[];
}

/** An endpoint's columns, with the events it subscribes to, sorted. */
const ENDPOINT_COLUMNS = `id, url, description, created_at, disabled_at,
  array(SELECT type FROM webhook_subscriptions AS s
        WHERE s.endpoint_id = webhook_endpoints.id ORDER BY type) AS events`;

const endpointFrom = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  createdAt: row.created_at,
  disabledAt: row.disabled_at,
  events: [...row.events],
});

export function postgresWebhookReads(calls: BoundedCalls): WebhookReads {
  const mapped = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw asStoreError(error);
    }
  };
  const endpoint = (id: string) =>
    calls.read(
      (q) => q<EndpointRow[]>`
        SELECT ${q.unsafe(ENDPOINT_COLUMNS)} FROM webhook_endpoints WHERE id = ${id}`,
    );
  return {
    nextDueInMs: () =>
      mapped(async () => {
        // An event to fan out is due now; else, per endpoint, the first entry of its range of
        // webhook_deliveries_due; the server's clock.
        const [row] = await calls.read(
          (q) => q<{ due: number | null }[]>`
            SELECT CASE WHEN EXISTS (SELECT 1 FROM webhook_events WHERE NOT fanned_out) THEN 0
                   ELSE (extract(epoch FROM min(first) - clock_timestamp()) * 1000)::float8
                   END AS due
            FROM (SELECT (SELECT next_attempt_at FROM webhook_deliveries AS d
                          WHERE d.endpoint_id = e.id AND d.status = 'pending'
                          ORDER BY next_attempt_at LIMIT 1) AS first
                  FROM webhook_endpoints AS e WHERE e.disabled_at IS NULL) AS firsts`,
        );
        return row?.due === null || row?.due === undefined ? null : Number(row.due);
      }),
    getEndpoint: (id) =>
      mapped(async () => {
        const [row] = await endpoint(id);
        return row === undefined ? undefined : endpointFrom(row);
      }),
    listEndpoints: ({ after, limit }) =>
      mapped(async () => {
        const rows = await calls.read(
          (q) => q<EndpointRow[]>`
            SELECT ${q.unsafe(ENDPOINT_COLUMNS)} FROM webhook_endpoints
            WHERE id > ${after ?? ""} ORDER BY id LIMIT ${limit}::int4`,
        );
        return { endpoints: rows.map(endpointFrom), full: rows.length >= limit };
      }),
    listDeliveries: (endpointId, { after, limit }) =>
      mapped(async () => {
        if ((await endpoint(endpointId)).length === 0) return undefined;
        const rows = await calls.read(
          (q) => q<PostgresDeliveryRow[]>`
            SELECT ${q.unsafe(DELIVERY_COLUMNS)}
            FROM webhook_deliveries AS d JOIN webhook_events AS ev ON ev.id = d.event_id
            WHERE d.endpoint_id = ${endpointId} AND d.id > ${after ?? ""}
            ORDER BY d.id LIMIT ${limit}::int4`,
        );
        return { deliveries: rows.map(deliveryFromPostgres), full: rows.length >= limit };
      }),
    backlog: () =>
      mapped(async () => {
        const [row] = await calls.read(
          (q) => q<{ pending: string; oldest: Date | null }[]>`
            SELECT (SELECT count(*) FROM (
                      SELECT 1 FROM webhook_deliveries WHERE status = 'pending'
                      UNION ALL SELECT 1 FROM webhook_events WHERE NOT fanned_out
                      LIMIT ${BACKLOG_COUNTED_UP_TO}) AS counted)::text AS pending,
                   least((SELECT min(created_at) FROM webhook_deliveries
                          WHERE status = 'pending'),
                         (SELECT created_at FROM webhook_events WHERE NOT fanned_out
                          ORDER BY id LIMIT 1)) AS oldest`,
        );
        return { pending: Number(row?.pending ?? 0), oldestCreatedAt: row?.oldest ?? null };
      }),
  };
}
