// GET /webhook-endpoints/{id}/deliveries: a keyset page of the endpoint's delivery log.
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";
import { nextPageLink } from "./next-link.ts";
import { deliveryAnswer, noSuchEndpoint } from "./webhook-answers.ts";

export function listWebhookDeliveries({
  store: { webhooks },
  publicUrl,
}: HandlerDeps): OperationHandler<"listWebhookDeliveries"> {
  return async ({ path, query: { after, limit } }, context): Answer<"listWebhookDeliveries"> => {
    const { id } = path;
    const page = await webhooks.listDeliveries(id, { after, limit });
    if (page === undefined) return noSuchEndpoint(id);
    const body = page.deliveries.map(deliveryAnswer);
    const headers = page.full
      ? nextPageLink(
          { template: context.operation.path, path },
          publicUrl,
          page.deliveries.at(-1)?.id,
          limit,
        )
      : undefined;
    return headers === undefined ? { status: 200, body } : { status: 200, body, headers };
  };
}
