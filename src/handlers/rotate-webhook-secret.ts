// POST /webhook-endpoints/{id}/rotate-secret: a new secret; the old one signs for a day more.
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";
import { noSuchEndpoint, SECRET_OVERLAP_MS } from "./webhook-answers.ts";

export function rotateWebhookSecret({
  webhooks,
}: HandlerDeps): OperationHandler<"rotateWebhookSecret"> {
  return async ({ path: { id } }): Answer<"rotateWebhookSecret"> => {
    const secret = await webhooks.rotateSecret(id, SECRET_OVERLAP_MS);
    if (secret === undefined) return noSuchEndpoint(id);
    return { status: 200, body: { secret } };
  };
}
