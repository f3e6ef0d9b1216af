// POST /plants. Runs only for routed, authenticated, validated requests.
import { errorResponse, type OperationRequestBody } from "../http/responses.ts";
import type { OperationHandler } from "../openapi/backend.ts";
import { type Plant, type PlantStore, UnstorableValueError } from "../store/store.ts";

export function createPlantHandler(store: PlantStore): OperationHandler<"createPlant"> {
  return async (_context, { body }) => {
    if (body === undefined || !body.ok || body.exactId === undefined) {
      // Validation lets neither through; failing loudly keeps this closed if that changes.
      throw new Error("createPlant reached with a body that did not pass validation");
    }
    // The validator has checked this shape against NewPlant; the id comes from its literal.
    const { name, tag } = body.forValidation as unknown as OperationRequestBody<"createPlant">;
    const plant: Plant = tag === undefined ? { name } : { name, tag };
    try {
      const result = await store.create({ id: body.exactId, ...plant });
      if (result.kind === "conflict") {
        return errorResponse(
          409,
          `a plant with id ${body.exactId} already exists with a different name or tag`,
        );
      }
      return { status: 200, body: result.plant };
    } catch (error) {
      if (error instanceof UnstorableValueError) return errorResponse(400, error.message);
      throw error;
    }
  };
}
