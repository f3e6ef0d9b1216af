// Every operation of openapi/plants.yaml and its handler. A plain action on a declared table
// (x-action) is served by the generic handlers; every other operation is named here: adding one
// to the YAML and running `npm run generate` scaffolds its handler file and adds its line, and
// the compiler names an operation with no handler, or a handler with no operation.
import { documentationHandlers } from "../docs/handlers.ts";
import type { ApiData } from "../openapi/data.ts";
import type { OperationHandlers } from "../openapi/operation-types.ts";
import { healthHandlers } from "../ops/health.ts";
import { metricsHandler } from "../ops/metrics.ts";
import { createWebhookEndpoint } from "./create-webhook-endpoint.ts";
import { deleteWebhookEndpoint } from "./delete-webhook-endpoint.ts";
import type { HandlerDeps } from "./deps.ts";
import { getApiChangelog } from "./get-api-changelog.ts";
import { getWebhookEndpoint } from "./get-webhook-endpoint.ts";
import { listWebhookDeliveries } from "./list-webhook-deliveries.ts";
import { listWebhookEndpoints } from "./list-webhook-endpoints.ts";
import { resourceHandlers } from "./resources.ts";
import { retryWebhookDelivery } from "./retry-webhook-delivery.ts";
import { rotateWebhookSecret } from "./rotate-webhook-secret.ts";
import { updateWebhookEndpoint } from "./update-webhook-endpoint.ts";

/**
 * Every operation's handler, by operationId: the generic ones of the document's plain actions
 * on its tables (resources.ts), and those written here, which take precedence.
 */
export function operationHandlers(
  deps: HandlerDeps,
  data: ApiData,
): Readonly<Record<string, unknown>> {
  return { ...resourceHandlers(deps, data), ...ownHandlers(deps) };
}

function ownHandlers(deps: HandlerDeps): OperationHandlers {
  const health = healthHandlers(deps.store);
  const documentation = documentationHandlers(deps.app, deps.publicUrl, {
    metricsOpen: deps.metricsOpen,
    values: deps.published,
  });
  return {
    getHealth: health.getHealth,
    getReadiness: health.getReadiness,
    getMetrics: metricsHandler(deps.metrics),
    getOpenApiJson: documentation.getOpenApiJson,
    getOpenApiYaml: documentation.getOpenApiYaml,
    getDocs: documentation.getDocs,
    getDocsAsset: documentation.getDocsAsset,
    listWebhookEndpoints: listWebhookEndpoints(deps),
    createWebhookEndpoint: createWebhookEndpoint(deps),
    getWebhookEndpoint: getWebhookEndpoint(deps),
    deleteWebhookEndpoint: deleteWebhookEndpoint(deps),
    rotateWebhookSecret: rotateWebhookSecret(deps),
    listWebhookDeliveries: listWebhookDeliveries(deps),
    retryWebhookDelivery: retryWebhookDelivery(deps),
    getApiChangelog: getApiChangelog(deps),
    updateWebhookEndpoint: updateWebhookEndpoint(deps),
  };
}
