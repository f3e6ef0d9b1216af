// PATCH /plants/{id}: Change a plant. Scaffolded by `npm run generate`: it answers 501
// until written. The input is typed and validated from the document; the return type makes
// any answer the document does not describe a compile error.
import { Problem } from "../http/errors.ts";
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";

export function updatePlant(_deps: HandlerDeps): OperationHandler<"updatePlant"> {
  return async (_input): Answer<"updatePlant"> => {
    throw new Problem(501, "PATCH /plants/{id} is not implemented yet");
  };
}
