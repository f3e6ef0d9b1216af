// Every operation of openapi/plants.yaml and its handler. Adding an operation to the YAML and
// running `npm run generate` makes the compiler ask for one more entry here.
import { documentationHandlers } from "../docs/handlers.ts";
import type { OperationHandlers } from "../openapi/operation-types.ts";
import { healthHandlers } from "../ops/health.ts";
import { metricsHandler } from "../ops/metrics.ts";
import { createPlant } from "./create-plant.ts";
import { deletePlant } from "./delete-plant.ts";
import type { HandlerDeps } from "./deps.ts";
import { getPlant } from "./get-plant.ts";
import { listPlants } from "./list-plants.ts";

export function operationHandlers(deps: HandlerDeps): OperationHandlers {
  return {
    createPlant: createPlant(deps),
    listPlants: listPlants(deps),
    getPlant: getPlant(deps),
    deletePlant: deletePlant(deps),
    ...healthHandlers(deps.store),
    getMetrics: metricsHandler(deps.metrics),
    ...documentationHandlers(deps.app, deps.publicUrl, {
      metricsOpen: deps.metricsOpen,
      values: deps.published,
    }),
  };
}
