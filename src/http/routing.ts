// A request no operation's route took: 404, or 405 with Allow when the path has operations for
// other methods — as openapi-backend routes the path, so the answer follows the document.

import type { Api } from "../openapi/backend.ts";
import { targetPath } from "../text/request-target.ts";
import { Problem } from "./errors.ts";

export function routingRefusal(api: Api, method: string, target: string): Problem {
  const path = targetPath(target);
  const methods = api.methodsAt(path);
  if (methods.length === 0) return new Problem(404, `no resource at ${method} ${path}`);
  // Every GET answers HEAD too (RFC 9110 §9.3.2).
  const allowed = methods.includes("GET") ? [...new Set([...methods, "HEAD"])].sort() : methods;
  const allow = allowed.join(", ");
  return new Problem(405, `${method} is not allowed on ${path}; use ${allow}`, { allow });
}
