// Asks openapi-backend for the answer to one request: routing, authentication, body
// interpretation (only once authenticated), validation and the operation handler.
import type { IncomingHttpHeaders } from "node:http";
import type { OpenAPIBackend, Request } from "openapi-backend";
import type { ApiResponse } from "../http/responses.ts";
import type { Call } from "./backend.ts";

/**
 * Decides a request openapi-backend routes itself: every request without a route of its own
 * (one that has is decided by src/openapi/routed.ts), and every request of the reference
 * pipeline (AppOptions.referencePipeline).
 */
export type Decide = (call: Call) => Promise<ApiResponse>;

export function createDecide(api: OpenAPIBackend): Decide {
  return (call) => api.handleRequest(call.request, call);
}

/**
 * The request as openapi-backend is given it. `target` is the request target as received:
 * origin-form, or absolute-form from a proxy. `query` is the parsed query; without it
 * openapi-backend parses the target's, dropping __proto__ & co.
 */
export function openapiRequest(
  method: string,
  target: string,
  headers: IncomingHttpHeaders,
  query?: unknown,
): Request {
  const request: Request = {
    method,
    path: originForm(target),
    headers: headers as Request["headers"],
  };
  if (query !== undefined) request.query = query as NonNullable<Request["query"]>;
  return request;
}

/** The operationId a request would be routed to, or undefined (for metrics labels). */
export function operationIdOf(
  api: OpenAPIBackend,
  method: string,
  target: string,
): string | undefined {
  return api.matchOperation({ method, path: originForm(target), headers: {} })?.operationId;
}

/**
 * An absolute-form target (RFC 9112 §3.2.2) reduced to its path and query, as sent: no
 * dot-segment or percent normalisation, so it routes exactly like the origin form.
 */
function originForm(target: string): string {
  if (target.startsWith("/")) return target;
  const scheme = /^https?:\/\//i.exec(target);
  if (scheme === null) return target;
  // The authority ends at the first "/", "?" or "#"; what follows is kept as sent.
  let end = scheme[0].length;
  while (end < target.length && !"/?#".includes(target[end] ?? "")) end++;
  const rest = target.slice(end);
  return rest.startsWith("/") ? rest : `/${rest}`;
}
