// Authentication for one operation, as its security requirements in the document say, run as
// the first of its route's onRequest hooks: before its body is read, so that nobody without
// credentials can make the server read, decode or parse one. Each requirement names one scheme
// (several are alternatives, tried in order); a scheme is checked by the checker the app gives
// for its name, and a name without one stops start-up (fail closed). Then the caller's rate
// limit, then the scopes the operation lists in x-required-scopes.
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import type { Operation } from "openapi-backend";
import { checkScopes } from "../auth/authenticator.ts";
import type { AuthFailure, AuthOutcome } from "../auth/outcome.ts";
import { refusal } from "../http/errors.ts";
import type { RateLimits } from "../http/rate-limit.ts";
import { authFailureResponse } from "./auth-response.ts";
import { SCOPES_EXTENSION } from "./document.ts";

/** Checks a request's Authorization header for one scheme; a promise only when it must wait. */
export type SchemeCheck = (authorization: string | undefined) => AuthOutcome | Promise<AuthOutcome>;

export interface SecurityOptions {
  /**
   * A checker per security scheme of the document; `"open"` for a scheme this server does not
   * enforce (GET /metrics's token when none is configured).
   */
  schemes: Readonly<Record<string, SchemeCheck | "open">>;
  rateLimits: RateLimits;
  /** Told about every refused authentication, before the answer is sent. */
  onAuthFailure?: ((failure: AuthFailure) => void) | undefined;
}

/** The onRequest hook that authenticates callers of `operation`; undefined when it is open. */
export function authenticationFor(
  operation: Operation,
  options: SecurityOptions,
): onRequestHookHandler | undefined {
  const checks: SchemeCheck[] = [];
  for (const requirement of operation.security ?? []) {
    const names = Object.keys(requirement);
    // An empty requirement ({}) makes credentials optional: the operation is open.
    if (names.length === 0) return undefined;
    const [name] = names;
    if (names.length > 1 || name === undefined) {
      throw new Error(
        `${operation.operationId}: a requirement of several schemes is not supported`,
      );
    }
    const check = options.schemes[name];
    if (check === undefined)
      throw new Error(`${operation.operationId}: no checker for scheme ${name}`);
    if (check === "open") return undefined;
    checks.push(check);
  }
  if (checks.length === 0) return undefined;
  const scopes = requiredScopes(operation);
  const { rateLimits, onAuthFailure } = options;

  /** Settles the request with the first scheme's outcome that let it in, or the first failure. */
  const settle = (
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: AuthOutcome,
    done: (error?: Error) => void,
  ): void => {
    try {
      rateLimits.afterAuthentication(request, reply, outcome);
      const scoped = outcome.ok ? checkScopes(outcome.principal, scopes) : outcome;
      if (scoped.ok) {
        done();
        return;
      }
      noteFailure(request, reply, scoped);
      onAuthFailure?.(scoped);
      done(refusal(authFailureResponse(scoped)));
    } catch (error) {
      done(error as Error);
    }
  };

  // Callback style, not async: a static token is known at once, and only a lookup or a
  // signature check makes the request wait.
  return function authenticate(request, reply, done) {
    try {
      rateLimits.beforeAuthentication(request);
      const authorization = request.headers.authorization;
      const tryFrom = (at: number, first?: AuthOutcome): void => {
        const check = checks[at];
        if (check === undefined) {
          settle(request, reply, first as AuthOutcome, done);
          return;
        }
        const outcome = check(authorization);
        const next = (known: AuthOutcome) =>
          known.ok ? settle(request, reply, known, done) : tryFrom(at + 1, first ?? known);
        if (outcome instanceof Promise) outcome.then(next, done);
        else next(outcome);
      };
      tryFrom(0);
    } catch (error) {
      done(error as Error);
    }
  };
}

/** On the request's one log line: why, and which token when known; never the token. */
function noteFailure(request: FastifyRequest, reply: FastifyReply, failure: AuthFailure): void {
  const { kind, reason, token } = failure;
  request.log = request.log.child({ auth: { failure: kind, reason, token } });
  reply.log = request.log;
}

/** The operation's x-required-scopes: a list of scope names, or none. */
export function requiredScopes(operation: Operation): readonly string[] {
  const scopes: unknown = (operation as unknown as Record<string, unknown>)[SCOPES_EXTENSION];
  if (scopes === undefined) return [];
  if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === "string")) {
    throw new Error(`${SCOPES_EXTENSION} of ${operation.operationId} must be a list of strings`);
  }
  return scopes;
}
