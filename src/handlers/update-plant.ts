// PATCH /plants/{id}: a JSON Merge Patch of the plant's name and tag, answered with the plant
// as stored once the change is committed.
import { errorResponse } from "../http/responses.ts";
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";

export function updatePlant({ store: { plants } }: HandlerDeps): OperationHandler<"updatePlant"> {
  return async ({ path: { id }, body }): Answer<"updatePlant"> => {
    const plant = await plants.update(id, body);
    if (plant === undefined) return errorResponse(404, `no plant with id ${id}`);
    return { status: 200, body: { id, ...plant } };
  };
}
