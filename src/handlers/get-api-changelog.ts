// GET /changelog.md: the API changelog, written from the classified diff of each released
// document against the one before (src/spec-diff/).
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import { apiChangelog } from "../spec-diff/api-changelog.ts";
import type { HandlerDeps } from "./deps.ts";

export function getApiChangelog(_deps: HandlerDeps): OperationHandler<"getApiChangelog"> {
  return async (): Answer<"getApiChangelog"> => ({
    status: 200,
    body: apiChangelog(),
    contentType: "text/markdown; charset=utf-8",
  });
}
