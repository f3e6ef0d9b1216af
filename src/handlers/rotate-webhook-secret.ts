// POST /webhook-endpoints/{id}/rotate-secret: a new secret; the old one signs for a day more.

import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import { errorResponse } from "../openapi/responses.ts";
import { RotationLimitError } from "../store/webhooks.ts";
import type { HandlerDeps } from "./deps.ts";
import { noSuchEndpoint, SECRET_OVERLAP_MS } from "./webhook-answers.ts";

export function rotateWebhookSecret({
  store: { webhooks },
}: HandlerDeps): OperationHandler<"rotateWebhookSecret"> {
  return async ({ path: { id } }): Answer<"rotateWebhookSecret"> => {
    let secret: string | undefined;
    try {
      secret = await webhooks.rotateSecret(id, SECRET_OVERLAP_MS);
    } catch (error) {
      if (error instanceof RotationLimitError) return errorResponse(400, error.message);
      throw error;
    }
    if (secret === undefined) return noSuchEndpoint(id);
    return { status: 200, body: { secret } };
  };
}
