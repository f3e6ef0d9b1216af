// DELETE /webhook-endpoints/{id}: the endpoint and its delivery log, pending ones included.
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";
import { noSuchEndpoint } from "./webhook-answers.ts";

export function deleteWebhookEndpoint({
  store: { webhooks },
}: HandlerDeps): OperationHandler<"deleteWebhookEndpoint"> {
  return async ({ path: { id } }): Answer<"deleteWebhookEndpoint"> => {
    if (!(await webhooks.deleteEndpoint(id))) return noSuchEndpoint(id);
    return { status: 204 };
  };
}
