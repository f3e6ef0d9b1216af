// openapi-backend, configured to fail closed: every outcome it can reach (unknown path,
// wrong method, failed auth, failed validation, no handler) has a registered handler,
// so an operation handler only ever sees a routed, authenticated, valid request.
import { type Context, OpenAPIBackend, type Operation, type Request } from "openapi-backend";
import type { operations } from "../../generated/plants.ts";
import { type Authenticator, checkScopes } from "../auth/authenticator.ts";
import type { AuthFailure, AuthOutcome } from "../auth/outcome.ts";
import type { Body } from "../http/body.ts";
import { type ApiResponse, errorResponse, type OperationResponse } from "../http/responses.ts";
import { describeValidationErrors } from "../http/validation-message.ts";
import { authFailureResponse } from "./auth-response.ts";
import { loadDocument } from "./document.ts";

/** What the Fastify route hands to every openapi-backend handler besides the context. */
export interface Call {
  /** The request given to handleRequest; its body is filled in after authentication. */
  readonly request: Request;
  /** Interprets the raw body (src/http/body.ts). */
  readonly readBody: () => Body;
  /** Set once the caller is authenticated; validationFail and operations always have it. */
  body?: Body;
  /** Told about every refused authentication, before the answer is sent. */
  readonly onAuthFailure?: (failure: AuthFailure) => void;
  /** Runs once the request is routed, before credentials are checked; may throw (rate limits). */
  readonly beforeAuthentication?: (operation: Operation) => void;
  /** Told who the caller is (or why not) before scopes are checked; may throw (rate limits). */
  readonly afterAuthentication?: (outcome: AuthOutcome) => void;
}

export type OperationHandler<Op extends keyof operations> = (
  context: Context,
  call: Call,
) => Promise<OperationResponse<Op>>;

export interface BackendOptions {
  authenticator: Pick<Authenticator, "identify">;
  /** Checks PLANTSTORE_METRICS_TOKEN for GET /metrics; undefined leaves it open. */
  metricsToken?: ((authorization: string | undefined) => AuthOutcome) | undefined;
  /** One handler per operation in the YAML: the compiler reports a missing or extra one. */
  operations: { [Op in keyof operations]: OperationHandler<Op> };
}

/** Operation extension naming the scopes a token needs, when it carries scopes at all. */
const SCOPES_EXTENSION = "x-required-scopes";

export async function createBackend({
  authenticator,
  metricsToken,
  operations,
}: BackendOptions): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: loadDocument(),
    strict: true,
    validate: true,
    coerceTypes: false,
    ignoreTrailingSlashes: false,
    ajvOpts: { allErrors: true, verbose: true, coerceTypes: false, useDefaults: false },
    securityHandlers: {
      // A token without a needed scope fails here too (insufficient_scope), so that the body
      // is never read for it; unauthorizedHandler answers 403 for that kind of failure.
      bearerAuth: async (c: Context, call: Call) =>
        settle(await authenticator.identify(header(c, "authorization")), c, call),
      // GET /metrics has a token of its own; without one configured, it is open.
      metricsToken: async (c: Context, call: Call) => {
        if (metricsToken === undefined) return { ok: true };
        return settle(metricsToken(header(c, "authorization")), c, call);
      },
    },
    handlers: {
      ...operations,
      // Also called when routing failed, without an operation.
      postRoutingHandler: async (c: Context, call: Call) => {
        const operation = c.operation as Operation | undefined;
        if (operation !== undefined) call.beforeAuthentication?.(operation);
      },
      notFound: (c: Context) =>
        errorResponse(404, `no resource at ${c.request.method.toUpperCase()} ${c.request.path}`),
      methodNotAllowed: (c: Context) => {
        const allow = allowedMethods(api, c.request.path);
        return errorResponse(
          405,
          `${c.request.method.toUpperCase()} is not allowed on ${c.request.path}; use ${allow}`,
          { allow },
        );
      },
      unauthorizedHandler: (c: Context, call: Call) => unauthorized(c, call),
      // The body is read only for an authenticated caller, after routing and before
      // validation: nobody without a token can make the server decode or parse JSON.
      postSecurityHandler: (c: Context, call: Call) => {
        if (!c.security["authorized"] || c.operation.requestBody === undefined) return;
        const body = call.readBody();
        call.body = body;
        call.request.body = body.ok ? body.forValidation : undefined;
      },
      validationFail: (c: Context, { body }: Call) => {
        if (body !== undefined && !body.ok) {
          return errorResponse(body.problem.status, body.problem.message);
        }
        return errorResponse(400, describeValidationErrors(c.validation.errors ?? []));
      },
      notImplemented: (c: Context) =>
        errorResponse(501, `${c.operation.operationId ?? "this operation"} is not implemented`),
    },
  });
  await api.init();
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
async function settle(outcome: AuthOutcome, c: Context, call: Call): Promise<unknown> {
  call.afterAuthentication?.(outcome);
  const scoped = outcome.ok ? checkScopes(outcome.principal, requiredScopes(c.operation)) : outcome;
  return scoped.ok ? scoped : { error: scoped };
}

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

function allowedMethods(api: OpenAPIBackend, path: string): string {
  return api.router
    .getOperations()
    .filter((op) => op.path === path)
    .map((op) => op.method.toUpperCase())
    .join(", ");
}

function header(c: Context, name: string): string | undefined {
  const value = (c.request.headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}
