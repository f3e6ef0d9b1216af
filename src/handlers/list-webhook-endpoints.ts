// GET /webhook-endpoints: a keyset page of endpoints, with a next Link when it is full.
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";
import { nextPageLink } from "./next-link.ts";
import { endpointAnswer } from "./webhook-answers.ts";

export function listWebhookEndpoints({
  store: { webhooks },
  publicUrl,
}: HandlerDeps): OperationHandler<"listWebhookEndpoints"> {
  return async ({ query: { after, limit } }, context): Answer<"listWebhookEndpoints"> => {
    const { endpoints, full } = await webhooks.listEndpoints({ after, limit });
    const body = endpoints.map(endpointAnswer);
    const headers = full
      ? nextPageLink({ template: context.operation.path }, publicUrl, endpoints.at(-1)?.id, limit)
      : undefined;
    return headers === undefined ? { status: 200, body } : { status: 200, body, headers };
  };
}
