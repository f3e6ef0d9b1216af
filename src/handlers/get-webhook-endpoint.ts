// GET /webhook-endpoints/{id}: one endpoint, without its secret.
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";
import { endpointAnswer, noSuchEndpoint } from "./webhook-answers.ts";

export function getWebhookEndpoint({
  store: { webhooks },
}: HandlerDeps): OperationHandler<"getWebhookEndpoint"> {
  return async ({ path: { id } }): Answer<"getWebhookEndpoint"> => {
    const endpoint = await webhooks.getEndpoint(id);
    if (endpoint === undefined) return noSuchEndpoint(id);
    return { status: 200, body: endpointAnswer(endpoint) };
  };
}
