// POST /plants. Runs only for routed, authenticated, validated requests.
import { errorResponse } from "../http/responses.ts";
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";

export function createPlant({ store: { plants } }: HandlerDeps): OperationHandler<"createPlant"> {
  return async ({ body: { id, name, tag } }): Answer<"createPlant"> => {
    const result = await plants.create(tag === undefined ? { id, name } : { id, name, tag });
    if (result.kind === "conflict") {
      return errorResponse(
        409,
        `a plant with id ${id} already exists with a different name or tag`,
      );
    }
    return { status: 200, body: result.plant };
  };
}
