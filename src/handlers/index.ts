// Every operation of openapi/plants.yaml and its handler, each named here. Adding an operation
// to the YAML and running `npm run generate` scaffolds its handler file and adds its line here;
// the compiler names an operation with no handler, or a handler with no operation.
import { documentationHandlers } from "../docs/handlers.ts";
import type { OperationHandlers } from "../openapi/operation-types.ts";
import { healthHandlers } from "../ops/health.ts";
import { metricsHandler } from "../ops/metrics.ts";
import { createPlant } from "./create-plant.ts";
import { createWebhookEndpoint } from "./create-webhook-endpoint.ts";
import { deletePlant } from "./delete-plant.ts";
import { deleteWebhookEndpoint } from "./delete-webhook-endpoint.ts";
import type { HandlerDeps } from "./deps.ts";
import { getApiChangelog } from "./get-api-changelog.ts";
import { getPlant } from "./get-plant.ts";
import { getWebhookEndpoint } from "./get-webhook-endpoint.ts";
import { listPlants } from "./list-plants.ts";
import { listWebhookDeliveries } from "./list-webhook-deliveries.ts";
import { listWebhookEndpoints } from "./list-webhook-endpoints.ts";
import { retryWebhookDelivery } from "./retry-webhook-delivery.ts";
import { rotateWebhookSecret } from "./rotate-webhook-secret.ts";
import { updatePlant } from "./update-plant.ts";

export function operationHandlers(deps: HandlerDeps): OperationHandlers {
  const health = healthHandlers(deps.store);
  const documentation = documentationHandlers(deps.app, deps.publicUrl, {
    metricsOpen: deps.metricsOpen,
    values: deps.published,
  });
  return {
    createPlant: createPlant(deps),
    listPlants: listPlants(deps),
    getPlant: getPlant(deps),
    deletePlant: deletePlant(deps),
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
    updatePlant: updatePlant(deps),
    getApiChangelog: getApiChangelog(deps),
  };
}
