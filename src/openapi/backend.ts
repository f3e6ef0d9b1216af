// openapi-backend, configured to fail closed: every outcome it can reach (unknown path,
// wrong method, failed auth, failed validation, no handler) has a registered handler,
// so an operation handler only ever sees a routed, authenticated, valid request. Parameters
// and bodies are read by the document's own rules and checked by openapi-backend's compiled
// validators (src/openapi/inputs.ts); the handler gets exactly what was checked.
import { type Context, OpenAPIBackend, type Operation, type Request } from "openapi-backend";
import { type Authenticator, checkScopes } from "../auth/authenticator.ts";
import type { AuthFailure, AuthOutcome } from "../auth/outcome.ts";
import type { Body, BodyShape } from "../http/body.ts";
import { type ApiResponse, errorResponse } from "../http/responses.ts";
import { describeValidationErrors } from "../http/validation-message.ts";
import { authFailureResponse } from "./auth-response.ts";
import { loadDocument, SCOPES_EXTENSION } from "./document.ts";
import { type Inputs, inputReaders, type ReadInputs } from "./inputs.ts";
import type { OperationHandlers } from "./operation-types.ts";
import { isThenable } from "./thenable.ts";

/**
 * What the Fastify route hands to every openapi-backend handler besides the context. Its steps
 * are methods, always called on the call itself: an implementation may use `this`
 * (src/http/request-call.ts), so none is ever passed on as a bare function.
 */
export interface Call {
  /** The request given to openapi-backend; its query and body become the values read. */
  readonly request: Request;
  /** Path parameters, when the operation's own route matched them as openapi-backend would. */
  readonly params?: Record<string, string> | undefined;
  /** Interprets the raw body as the operation's body (src/http/body.ts). */
  readBody(shape: BodyShape): Body;
  /** Set once the caller is authenticated (or needs not be): what was read, or why not. */
  inputs?: ReturnType<ReadInputs> | undefined;
  /** Told about every refused authentication, before the answer is sent. */
  onAuthFailure?(failure: AuthFailure): void;
  /** Runs once the request is routed, before credentials are checked; may throw (rate limits). */
  beforeAuthentication?(operation: Operation): void;
  /** Told who the caller is (or why not) before scopes are checked; may throw (rate limits). */
  afterAuthentication?(outcome: AuthOutcome): void;
}

export interface BackendOptions {
  authenticator: Pick<Authenticator, "identify">;
  /** Checks PLANTSTORE_METRICS_TOKEN for GET /metrics; undefined leaves it open. */
  metricsToken?: ((authorization: string | undefined) => AuthOutcome) | undefined;
  /** One handler per operation in the YAML (src/handlers/index.ts). */
  operations: OperationHandlers;
}

export async function createBackend({
  authenticator,
  metricsToken,
  operations,
}: BackendOptions): Promise<OpenAPIBackend> {
  // Built once the document is loaded and dereferenced (after init, below).
  let readers = new Map<string, ReadInputs>();
  const api = new OpenAPIBackend({
    definition: loadDocument(),
    strict: true,
    // Requests are validated as they are read, after authentication (src/openapi/inputs.ts),
    // with the validators openapi-backend compiles here; a predicate rather than `false`, so
    // that it still compiles them. A request that fails is answered by the wrapper below.
    validate: () => false,
    coerceTypes: false,
    // The int64 format is checked on the stand-ins src/http/body.ts picks from the exact
    // values, and never decides by itself: openapi-backend's own check works in doubles.
    customizeAjv: (ajv) =>
      ajv.addFormat("int64", { type: "number", validate: (n: number) => isInt64Double(n) }),
    ignoreTrailingSlashes: false,
    ajvOpts: { allErrors: true, verbose: true, coerceTypes: false, useDefaults: false },
    securityHandlers: {
      // A token without a needed scope fails here too (insufficient_scope), so that the body
      // is never read for it; unauthorizedHandler answers 403 for that kind of failure.
      // Not async: a static token is known at once, and only a lookup or a signature check
      // needs a promise (src/openapi/thenable.ts). A throw fails the scheme just as a rejection.
      bearerAuth: (c: Context, call: Call) => {
        const outcome = authenticator.identify(header(c, "authorization"));
        return isThenable(outcome)
          ? Promise.resolve(outcome).then((known) => settle(known, c, call))
          : settle(outcome, c, call);
      },
      // GET /metrics has a token of its own; without one configured, it is open.
      metricsToken: (c: Context, call: Call) => {
        if (metricsToken === undefined) return { ok: true };
        return settle(metricsToken(header(c, "authorization")), c, call);
      },
    },
    handlers: {
      ...withInputs(operations),
      // Also called when routing failed, without an operation. Not async: a promise would
      // cost every request a microtask for nothing (a throw rejects just the same).
      postRoutingHandler: (c: Context, call: Call) => {
        const operation = c.operation as Operation | undefined;
        if (operation !== undefined) call.beforeAuthentication?.(operation);
      },
      notFound: (c: Context) =>
        errorResponse(404, `no resource at ${c.request.method.toUpperCase()} ${c.request.path}`),
      methodNotAllowed: (c: Context) => {
        const allow = allowedMethods(api, c.request.path).join(", ");
        return errorResponse(
          405,
          `${c.request.method.toUpperCase()} is not allowed on ${c.request.path}; use ${allow}`,
          { allow },
        );
      },
      unauthorizedHandler: (c: Context, call: Call) => unauthorized(c, call),
      // Parameters and body are read only for an authenticated caller (or for an operation
      // that needs no credentials), after routing and before validation: nobody without a
      // token can make the server decode or parse JSON.
      postSecurityHandler: (c: Context, call: Call) => {
        const open = (c.operation.security ?? []).length === 0;
        if (!c.security["authorized"] && !open) return;
        const read = readers.get(c.operation.operationId ?? "");
        if (read === undefined) throw new Error(`no input reader for ${c.operation.operationId}`);
        call.inputs = read(c.request, call);
      },
      validationFail: (c: Context) =>
        errorResponse(400, describeValidationErrors(c.validation.errors ?? [])),
      notImplemented: (c: Context) =>
        errorResponse(501, `${c.operation.operationId ?? "this operation"} is not implemented`),
    },
  });
  await api.init();
  readers = inputReaders(api);
  // openapi-backend derives the operation list from the document again on every match (a
  // lodash chain: a tenth of a request's CPU in a profile); the document never changes once
  // loaded, so the list is derived once and every later match reuses it.
  const operationList = api.router.getOperations();
  api.router.getOperations = () => operationList;
  for (const operation of api.router.getOperations()) requiredScopes(operation);
  const missing = api.router
    .getOperations()
    .filter((op) => !((op.operationId ?? "") in operations));
  if (missing.length > 0) {
    throw new Error(`no handler for operations: ${missing.map((op) => op.operationId).join(", ")}`);
  }
  return api;
}

/**
 * What a security handler gives openapi-backend: the outcome once the rate limits have seen it
 * (they may throw a 429 instead) and the operation's scopes are checked.
 */
function settle(outcome: AuthOutcome, c: Context, call: Call): unknown {
  call.afterAuthentication?.(outcome);
  const scoped = outcome.ok ? checkScopes(outcome.principal, requiredScopes(c.operation)) : outcome;
  return scoped.ok ? scoped : { error: scoped };
}

/**
 * Each handler as openapi-backend calls it: with the inputs read and validated for it, or,
 * when they could not be read or are not valid, the reason as a 400/413/415 instead.
 */
function withInputs(
  operations: OperationHandlers,
): Record<string, (c: Context, call: Call) => ApiResponse | Promise<ApiResponse>> {
  return Object.fromEntries(
    Object.entries(operations).map(([operationId, handler]) => {
      // Every handler takes its own operation's inputs, which the document's readers and
      // validator have just produced and checked: one cast, here, for all of them.
      const typed = handler as (input: Inputs, context: Context) => Promise<ApiResponse>;
      return [
        operationId,
        // Not async: the handler's own promise is the answer, without another layer around it.
        (c: Context, call: Call) => {
          const { inputs } = call;
          if (inputs === undefined) throw new Error(`${operationId} reached with nothing read`);
          if (!inputs.ok) return errorResponse(inputs.problem.status, inputs.problem.message);
          return typed(inputs.typed, c);
        },
      ];
    }),
  );
}

const isInt64Double = (n: number): boolean => Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 63;

function unauthorized(c: Context, call: Call): ApiResponse {
  const result = (c.security["bearerAuth"] ?? c.security["metricsToken"]) as
    | { error?: unknown }
    | undefined;
  const failure = result?.error;
  // Anything but an AuthFailure (a rate limit's 429 aside, which the route answers) is a fault
  // in authenticating, not the caller's: a 500.
  if (!isAuthFailure(failure)) throw failure ?? new Error("authentication gave no outcome");
  call.onAuthFailure?.(failure);
  return authFailureResponse(failure);
}

const isAuthFailure = (value: unknown): value is AuthFailure =>
  typeof value === "object" && value !== null && "ok" in value && value.ok === false;

/** The operation's x-required-scopes: a list of scope names, or none. */
function requiredScopes(operation: Context["operation"]): readonly string[] {
  const scopes: unknown = (operation as unknown as Record<string, unknown>)[SCOPES_EXTENSION];
  if (scopes === undefined) return [];
  if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === "string")) {
    throw new Error(`${SCOPES_EXTENSION} of ${operation.operationId} must be a list of strings`);
  }
  return scopes;
}

/**
 * The methods the document has for the concrete `path`, as openapi-backend routes it (so a
 * templated path such as /docs/{asset} counts for /docs/init.js).
 */
export function allowedMethods(api: OpenAPIBackend, path: string): string[] {
  return api.router
    .getOperations()
    .filter((op) => api.router.matchOperation({ method: op.method, path, headers: {} }) === op)
    .map((op) => op.method.toUpperCase())
    .sort();
}

function header(c: Context, name: string): string | undefined {
  const value = (c.request.headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}
