// GET /plants/{id}: one stored plant, with its id.
import { errorResponse } from "../http/responses.ts";
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";

export function getPlant({ store: { plants } }: HandlerDeps): OperationHandler<"getPlant"> {
  return async ({ path: { id } }): Answer<"getPlant"> => {
    const plant = await plants.get(id);
    if (plant === undefined) return errorResponse(404, `no plant with id ${id}`);
    return { status: 200, body: { id, ...plant } };
  };
}
