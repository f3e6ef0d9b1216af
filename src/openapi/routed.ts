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

/**
 * The answer, or a promise of it. Synchronous for as long as every step is: the usual request
 * gets its operation handler's own promise back, with no layer around it.
 */
export type RoutedHandler = (
  operation: Operation,
  call: Call,
) => ApiResponse | Promise<ApiResponse>;

// handleRequest's steps, in order; a request goes on from the step where it had to wait.
const PRE_ROUTING = 0;
const POST_ROUTING = 1;
const SECURITY = 2;
const POST_SECURITY = 3;
const OPERATION = 4;
type Step =
  | typeof PRE_ROUTING
  | typeof POST_ROUTING
  | typeof SECURITY
  | typeof POST_SECURITY
  | typeof OPERATION;

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

  /**
   * Runs the steps from `from` on, each as handleRequest runs it. A step's result is waited for
   * only when it is a promise (src/openapi/thenable.ts), and then the rest go on once it has
   * settled; the results of the routing and pre/post handlers are not used, as in
   * handleRequest. A step that throws fails the request whether it throws or rejects. Returns
   * the answer as the last step gives it: a value, or the handler's own promise.
   */
  const runFrom = (from: Step, plan: Plan, context: Context, call: Call): unknown => {
    let pending: unknown;
    if (from <= PRE_ROUTING) {
      pending = preRouting?.(context, call);
      if (isThenable(pending)) return after(pending, POST_ROUTING, plan, context, call);
    }
    if (from <= POST_ROUTING) {
      pending = postRouting?.(context, call);
      if (isThenable(pending)) return after(pending, SECURITY, plan, context, call);
    }
    if (from <= SECURITY) {
      pending = checkSecurity(api, plan, context, call);
      if (isThenable(pending)) return after(pending, POST_SECURITY, plan, context, call);
    }
    if (from <= POST_SECURITY) {
      pending = postSecurity?.(context, call);
      if (isThenable(pending)) return after(pending, OPERATION, plan, context, call);
    }
    if (!context.security["authorized"] && plan.requirements.length > 0) {
      return unauthorized(context, call);
    }
    // Validated as read, in postSecurityHandler (src/openapi/inputs.ts), as in handleRequest.
    // preOperationHandler runs on the way to the handler, once authorized.
    if (preOperation !== undefined) {
      pending = preOperation(context, call);
      if (isThenable(pending)) {
        return Promise.resolve(pending).then(() => plan.handle(context, call));
      }
    }
    return plan.handle(context, call);
  };
  // Made only when a step has given a promise: the usual request makes no closure here.
  const after = (
    pending: PromiseLike<unknown>,
    next: Step,
    plan: Plan,
    context: Context,
    call: Call,
  ) => Promise.resolve(pending).then(() => runFrom(next, plan, context, call));

  return (operation, call) => {
    const plan = plans.get(operation) ?? planFor(operation, required);
    const context = {
      api,
      operation,
      request: parsedByRoute(call, plan) ?? api.router.parseRequest(call.request, operation),
    } as unknown as Context;
    return runFrom(PRE_ROUTING, plan, context, call) as ApiResponse | Promise<ApiResponse>;
  };
}

/**
 * Runs the operation's security handlers and records their outcomes on the context as
 * handleRequest does (each scheme's result, and whether some requirement is met): at once
 * when every handler answered at once, else once the promises have settled.
 */
function checkSecurity(
  api: OpenAPIBackend,
  plan: Plan,
  context: Context,
  call: Call,
): Promise<void> | undefined {
  const results: Record<string, unknown> = {};
  const [first] = plan.schemes;
  if (plan.schemes.length === 1 && first !== undefined) {
    const result = outcome(api, first, context, call);
    if (isThenable(result)) {
      return Promise.resolve(result).then((settled) => {
        results[first] = settled;
        record(plan, context, results);
      });
    }
    results[first] = result;
  } else if (plan.schemes.length > 1) {
    return Promise.all(plan.schemes.map((scheme) => outcome(api, scheme, context, call))).then(
      (outcomes) => {
        plan.schemes.forEach((scheme, at) => {
          results[scheme] = outcomes[at];
        });
        record(plan, context, results);
      },
    );
  }
  record(plan, context, results);
  return undefined;
}

function record(plan: Plan, context: Context, results: Record<string, unknown>): void {
  results["authorized"] = isAuthorized(plan.requirements, results);
  context.security = results as Context["security"];
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
