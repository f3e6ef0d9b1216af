// POST /webhook-endpoints/{id}/deliveries/{deliveryId}/retry: pending again, due now.

import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import { errorResponse } from "../openapi/responses.ts";
import type { HandlerDeps } from "./deps.ts";
import { deliveryAnswer, noSuchEndpoint } from "./webhook-answers.ts";

export function retryWebhookDelivery({
  store: { webhooks },
}: HandlerDeps): OperationHandler<"retryWebhookDelivery"> {
  return async ({ path: { id, deliveryId } }): Answer<"retryWebhookDelivery"> => {
    const delivery = await webhooks.retryDelivery(id, deliveryId);
    if (delivery !== undefined) return { status: 202, body: deliveryAnswer(delivery) };
    if ((await webhooks.getEndpoint(id)) === undefined) return noSuchEndpoint(id);
    return errorResponse(404, `no delivery ${deliveryId} of webhook endpoint ${id}`);
  };
}
