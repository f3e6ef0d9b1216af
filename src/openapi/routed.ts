// openapi-backend's own handleRequest, for a request already routed to its operation: the
// same steps, in the same order, with the same registered handlers, but the request is parsed
// once (handleRequest parses it before routing, again after, and validation a third time) and
// the operation list is not searched. Fastify routes each path of the document that has no
// template here (src/app.ts); anything else still goes through handleRequest.
import type { Context, OpenAPIBackend, Operation, Request } from "openapi-backend";
import type { ApiResponse } from "../http/responses.ts";
import type { Call } from "./backend.ts";
import { HTTP_METHODS } from "./document.ts";
import { isThenable } from "./thenable.ts";

type Handler = (context: Context, call: Call) => unknown;

export type RoutedHandler = (operation: Operation, call: Call) => Promise<ApiResponse>;

export function createRoutedHandler(api: OpenAPIBackend): RoutedHandler {
  const handler = (name: string): Handler | undefined => api.handlers[name] as Handler | undefined;
  const required = (name: string): Handler => {
    const found = handler(name);
    if (found === undefined) throw new Error(`openapi-backend has no ${name} handler`);
    return found;
  };
  // Fail closed, as strict handleRequest does: these must all exist.
  const unauthorized = required("unauthorizedHandler");
  const preRouting = handler("preRoutingHandler");
  const postRouting = handler("postRoutingHandler");
  const postSecurity = handler("postSecurityHandler");
  const preOperation = handler("preOperationHandler");
  // What handleRequest works out from the operation on every request, worked out once.
  const plans = new Map(api.router.getOperations().map((op) => [op, planFor(op, required)]));

  // A step's result is awaited only when it is a promise (src/openapi/thenable.ts). Their
  // results are not used, as in handleRequest; a step that throws rejects the request either way.
  return async (operation, call) => {
    const plan = plans.get(operation) ?? planFor(operation, required);
    const context = {
      api,
      operation,
      request: parsedByRoute(call, plan) ?? api.router.parseRequest(call.request, operation),
    } as unknown as Context;
    let pending = preRouting?.(context, call);
    if (isThenable(pending)) await pending;
    pending = postRouting?.(context, call);
    if (isThenable(pending)) await pending;

    const results: Record<string, unknown> = {};
    const [first] = plan.schemes;
    if (plan.schemes.length === 1 && first !== undefined) {
      const result = outcome(api, first, context, call);
      results[first] = isThenable(result) ? await result : result;
    } else if (plan.schemes.length > 1) {
      const outcomes = await Promise.all(
        plan.schemes.map((scheme) => outcome(api, scheme, context, call)),
      );
      plan.schemes.forEach((scheme, at) => {
        results[scheme] = outcomes[at];
      });
    }
    const authorized = isAuthorized(plan.requirements, results);
    results["authorized"] = authorized;
    context.security = results as Context["security"];
    pending = postSecurity?.(context, call);
    if (isThenable(pending)) await pending;
    if (!authorized && plan.requirements.length > 0) {
      return (await unauthorized(context, call)) as ApiResponse;
    }

    // Validated as read, in postSecurityHandler (src/openapi/inputs.ts), as in handleRequest.
    pending = preOperation?.(context, call);
    if (isThenable(pending)) await pending;
    return (await plan.handle(context, call)) as ApiResponse;
  };
}

/**
 * A scheme's outcome as handleRequest records it: what its handler gave, or { error } when it
 * threw or rejected; undefined when the scheme has no handler.
 */
function outcome(api: OpenAPIBackend, scheme: string, context: Context, call: Call): unknown {
  const handler = api.securityHandlers[scheme] as Handler | undefined;
  if (handler === undefined) return undefined;
  try {
    const result = handler(context, call);
    return isThenable(result) ? Promise.resolve(result).then(undefined, failed) : result;
  } catch (error) {
    return failed(error);
  }
}

/** Whether some requirement has every one of its schemes met (none: no requirement is met). */
function isAuthorized(
  requirements: readonly (readonly string[])[],
  results: Record<string, unknown>,
): boolean {
  // Loops rather than some/every: no closures on every request.
  for (const requirement of requirements) if (allMet(requirement, results)) return true;
  return false;
}

function allMet(requirement: readonly string[], results: Record<string, unknown>): boolean {
  for (const scheme of requirement) if (!satisfied(results[scheme])) return false;
  return true;
}

const failed = (error: unknown) => ({ error: error || new Error("security handler rejected") });

/** Whether a security scheme's outcome counts as met, as handleRequest decides it. */
const satisfied = (result: unknown): boolean =>
  Boolean(result) && !(typeof result === "object" && (result as { error?: unknown }).error);

interface Plan {
  /** Each security requirement as the scheme names it needs, all of them. */
  requirements: readonly (readonly string[])[];
  /** Every scheme any requirement names, once. */
  schemes: readonly string[];
  /** Whether openapi-backend's parseRequest would leave the query as given (see below). */
  plainQuery: boolean;
  handle: Handler;
}

function planFor(operation: Operation, required: (name: string) => Handler): Plan {
  const requirements = (operation.security ?? []).map((requirement) => Object.keys(requirement));
  const parameters = (operation.parameters ?? []) as {
    in?: string;
    explode?: boolean;
    content?: unknown;
  }[];
  return {
    requirements,
    schemes: [...new Set(requirements.flat())],
    // parseRequest rewrites a query parameter given as JSON content or as a non-exploded list.
    plainQuery: !parameters.some(
      (p) => p.in === "query" && (p.content !== undefined || p.explode === false),
    ),
    handle: required(operation.operationId ?? ""),
  };
}

/** The document's methods as a request names them, lower-cased: no lowercasing per request. */
const LOWER_CASE_METHODS = new Map<string, string>(HTTP_METHODS.map((m) => [m.toUpperCase(), m]));

/**
 * What openapi-backend's parseRequest would give for a request whose route has matched the
 * path parameters exactly as it would (src/http/operation-routes.ts), built without parsing
 * again; undefined where it would compute more: cookies, or a query it rewrites.
 */
function parsedByRoute(call: Call, plan: Plan): Request | undefined {
  const { request, params } = call;
  const { query, headers } = request;
  if (params === undefined || !plan.plainQuery || typeof query !== "object") return undefined;
  if (headers["cookie"] !== undefined) return undefined;
  const path = request.path.trim();
  const queryAt = path.indexOf("?");
  // Built member by member rather than spread from `request`: the same members, and this is
  // on every routed request.
  return {
    method: LOWER_CASE_METHODS.get(request.method) ?? request.method.trim().toLowerCase(),
    path: queryAt === -1 ? path : path.slice(0, queryAt),
    params,
    // Node's header names are lower-case already, as parseRequest makes them.
    headers,
    // parseRequest hands on a copy; nothing here changes it.
    query,
    cookies: {},
    requestBody: undefined,
  } as Request;
}
