// Webhook endpoints and deliveries as the document's schemas write them (times as RFC 3339),
// and the shared parts of their handlers: paging links and the 404 of an unknown endpoint.
import { errorResponse } from "../openapi/responses.ts";
import type { WebhookDelivery, WebhookEndpoint } from "../store/webhooks.ts";

/** How long a rotated-out secret keeps signing (documented in openapi/plants.yaml). */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

const iso = (time: Date | null): string | null => (time === null ? null : time.toISOString());

export const endpointAnswer = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  description: endpoint.description,
  createdAt: endpoint.createdAt.toISOString(),
  disabledAt: iso(endpoint.disabledAt),
  events: endpoint.events,
});

export const deliveryAnswer = (delivery: WebhookDelivery) => ({
  id: delivery.id,
  event: delivery.event,
  plantId: delivery.plantId,
  status: delivery.status,
  attempts: delivery.attempts,
  lastStatus: delivery.lastStatus,
  lastError: delivery.lastError,
  nextAttemptAt: iso(delivery.nextAttemptAt),
  createdAt: delivery.createdAt.toISOString(),
});

export const noSuchEndpoint = (id: string) => errorResponse(404, `no webhook endpoint ${id}`);
