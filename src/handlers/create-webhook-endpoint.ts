// POST /webhook-endpoints: registers a receiver of the webhooks it names (every one declared when
// it names none) once its URL passes the address rules (checked again at every connection by
// the sender).
import { nameOf } from "../config/settings.ts";
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import { errorResponse } from "../openapi/responses.ts";
import { EndpointLimitError } from "../store/webhooks.ts";
import { checkEndpointUrl } from "../webhooks/endpoint-address.ts";
import type { HandlerDeps } from "./deps.ts";
import { endpointAnswer } from "./webhook-answers.ts";

export function createWebhookEndpoint({
  store: { webhooks },
  allowPrivateWebhooks,
  maxWebhookEndpoints,
}: HandlerDeps): OperationHandler<"createWebhookEndpoint"> {
  return async ({ body: { url, description, events } }): Answer<"createWebhookEndpoint"> => {
    const refused = await checkEndpointUrl(url, allowPrivateWebhooks);
    if (refused !== undefined) return errorResponse(400, refused);
    try {
      const created = await webhooks.createEndpoint({
        url,
        description: description ?? null,
        events,
        maxEndpoints: maxWebhookEndpoints,
      });
      return { status: 201, body: { ...endpointAnswer(created), secret: created.secret } };
    } catch (error) {
      if (error instanceof EndpointLimitError) {
        return errorResponse(
          400,
          `${error.message} (${nameOf("ops.maxWebhookEndpoints")}): delete one first`,
        );
      }
      throw error;
    }
  };
}
