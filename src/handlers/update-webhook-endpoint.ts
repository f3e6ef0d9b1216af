// PATCH /webhook-endpoints/{id}: a merge patch of the events an endpoint is sent (the document's
// schema lists the events there are) and of its description.
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";
import { endpointAnswer, noSuchEndpoint } from "./webhook-answers.ts";

export function updateWebhookEndpoint({
  store: { webhooks },
}: HandlerDeps): OperationHandler<"updateWebhookEndpoint"> {
  return async ({ path: { id }, body }): Answer<"updateWebhookEndpoint"> => {
    const change = {
      ...(body.events === undefined ? {} : { events: body.events }),
      ...(body.description === undefined ? {} : { description: body.description }),
    };
    const endpoint = await webhooks.updateEndpoint(id, change);
    if (endpoint === undefined) return noSuchEndpoint(id);
    return { status: 200, body: endpointAnswer(endpoint) };
  };
}
