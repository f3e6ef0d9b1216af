// POST /webhook-endpoints/{id}/deliveries/{deliveryId}/retry: Send a delivery again. Scaffolded by `npm run generate`: it answers 501
// until written. The input is typed and validated from the document; the return type makes
// any answer the document does not describe a compile error.
import { Problem } from "../http/errors.ts";
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";

export function retryWebhookDelivery(_deps: HandlerDeps): OperationHandler<"retryWebhookDelivery"> {
  return async (_input): Answer<"retryWebhookDelivery"> => {
    throw new Problem(
      501,
      "POST /webhook-endpoints/{id}/deliveries/{deliveryId}/retry is not implemented yet",
    );
  };
}
