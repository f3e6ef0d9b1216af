// Every operation of openapi/plants.yaml and its handler, each named here. Adding an operation
// to the YAML and running `npm run generate` scaffolds its handler file and adds its line here;
// the compiler names an operation with no handler, or a handler with no operation.
import { documentationHandlers } from "../docs/handlers.ts";
import type { OperationHandlers } from "../openapi/operation-types.ts";
import { healthHandlers } from "../ops/health.ts";
import { metricsHandler } from "../ops/metrics.ts";
import { createPlant } from "./create-plant.ts";
import { deletePlant } from "./delete-plant.ts";
import type { HandlerDeps } from "./deps.ts";
import { getPlant } from "./get-plant.ts";
import { listPlants } from "./list-plants.ts";
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
    updatePlant: updatePlant(deps),
  };
}
