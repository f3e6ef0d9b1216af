// Asks openapi-backend for the answer to one request: routing, authentication, body
// interpretation (only once authenticated), validation and the operation handler.
import type { IncomingHttpHeaders } from "node:http";
import type { OpenAPIBackend, Operation, Request } from "openapi-backend";
import type { AuthFailure } from "../auth/outcome.ts";
import type { ApiResponse } from "../http/responses.ts";
import type { Call } from "./backend.ts";
import { createRoutedHandler } from "./routed.ts";

export interface RequestFacts {
  method: string;
  /** The request target as received: origin-form, or absolute-form from a proxy. */
  target: string;
  headers: IncomingHttpHeaders;
  /** Parsed query; without it openapi-backend parses the target's, dropping __proto__ & co. */
  query?: unknown;
  /** Path parameters, when the operation's route matched them as openapi-backend would. */
  params?: Record<string, string> | undefined;
  readBody: Call["readBody"];
  onAuthFailure?: (failure: AuthFailure) => void;
  /** Runs once the request is routed, before credentials are checked (src/http/rate-limit.ts). */
  beforeAuthentication?: Call["beforeAuthentication"];
  /** Told who the caller is before scopes are checked (src/http/rate-limit.ts). */
  afterAuthentication?: Call["afterAuthentication"];
}

export type Decide = (facts: RequestFacts) => Promise<ApiResponse>;

export function createDecide(api: OpenAPIBackend): Decide {
  return (facts) => {
    const call = callFor(facts);
    return api.handleRequest(call.request, call);
  };
}

/** Decides a request that a route made from the document has already matched to `operation`. */
export type DecideRouted = (operation: Operation, facts: RequestFacts) => Promise<ApiResponse>;

export function createDecideRouted(api: OpenAPIBackend): DecideRouted {
  const handleRouted = createRoutedHandler(api);
  return (operation, facts) => handleRouted(operation, callFor(facts));
}

function callFor(facts: RequestFacts): Call {
  const { method, target, headers, query, readBody, onAuthFailure } = facts;
  const { beforeAuthentication, afterAuthentication, params } = facts;
  const request: Request = {
    method,
    path: originForm(target),
    headers: headers as Request["headers"],
  };
  if (query !== undefined) request.query = query as NonNullable<Request["query"]>;
  // Every member present (some undefined), so that each call has the same shape.
  return { request, readBody, params, onAuthFailure, beforeAuthentication, afterAuthentication };
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
