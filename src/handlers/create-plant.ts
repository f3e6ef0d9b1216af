// POST /plants. Runs only for routed, authenticated, validated requests.
import type { components } from "../../generated/plants.ts";
import { type ApiResponse, errorResponse } from "../http/responses.ts";
import type { OperationHandler } from "../openapi/backend.ts";
import { type Plant, type PlantStore, UnstorableValueError } from "../store/store.ts";

type NewPlantBody = components["schemas"]["NewPlant"];

export function createPlantHandler(store: PlantStore): OperationHandler {
  return async (_context, { body }) => {
    if (!body.ok || body.exactId === undefined) {
      // Validation lets neither through; failing loudly keeps this closed if that changes.
      throw new Error("createPlant reached with a body that did not pass validation");
    }
    // The validator has checked this shape against the NewPlant schema.
    const { name, tag } = body.forValidation as unknown as NewPlantBody;
    const plant: Plant = tag === undefined ? { name } : { name, tag };
    try {
      const result = await store.create({ id: body.exactId, ...plant });
      if (result.kind === "conflict") {
        return errorResponse(
          409,
          `a plant with id ${body.exactId} already exists with a different name or tag`,
        );
      }
      return ok(result.plant);
    } catch (error) {
      if (error instanceof UnstorableValueError) return errorResponse(400, error.message);
      throw error;
    }
  };
}

const ok = (plant: Plant): ApiResponse => ({ status: 200, body: plant });
