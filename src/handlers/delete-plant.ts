// DELETE /plants/{id}: answered only once the delete is committed.
import { errorResponse } from "../http/responses.ts";
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";

export function deletePlant({ store: { plants } }: HandlerDeps): OperationHandler<"deletePlant"> {
  return async ({ path: { id } }): Answer<"deletePlant"> => {
    if (!(await plants.delete(id))) return errorResponse(404, `no plant with id ${id}`);
    return { status: 204 };
  };
}
