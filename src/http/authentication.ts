// The authenticate step for one operation, as its security requirements in the document say.
// Each requirement names one scheme (several are alternatives, tried in order); a scheme is
// checked by the checker the app gives for its name (src/auth/authenticator.ts), and a name
// without one stops start-up (fail closed). It runs before the body is read, so that nobody
// without credentials can make the server read, decode or parse one.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Operation } from "openapi-backend";
import type { AuthFailure, AuthOutcome, SchemeCheck } from "../auth/outcome.ts";
import { authFailureResponse } from "../openapi/auth-response.ts";
import { type Problem, refusal } from "./errors.ts";

/**
 * A checker per security scheme of the document; `"open"` for a scheme this server does not
 * enforce (GET /metrics's token when none is configured).
 */
export type SchemeChecks = Readonly<Record<string, SchemeCheck | "open">>;

/** The checks of `operation`'s schemes, in the document's order; undefined when it is open. */
export function schemeChecksFor(
  operation: Operation,
  schemes: SchemeChecks,
): readonly SchemeCheck[] | undefined {
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
    const check = schemes[name];
    if (check === undefined) {
      throw new Error(`${operation.operationId}: no checker for scheme ${name}`);
    }
    if (check === "open") return undefined;
    checks.push(check);
  }
  return checks.length === 0 ? undefined : checks;
}

/**
 * The first outcome that lets the caller in, or the first scheme's failure. Not async: a static
 * token is known at once, and only a lookup or a signature check makes the request wait.
 */
export function identify(
  checks: readonly SchemeCheck[],
  authorization: string | undefined,
  from = 0,
  first?: AuthFailure,
): AuthOutcome | Promise<AuthOutcome> {
  const check = checks[from];
  if (check === undefined) return first as AuthFailure;
  const outcome = check(authorization);
  const next = (known: AuthOutcome) =>
    known.ok ? known : identify(checks, authorization, from + 1, first ?? known);
  return outcome instanceof Promise ? outcome.then(next) : next(outcome);
}

/** The refusal of a failed authentication, noted on the request's one log line (never the token). */
export function authenticationRefusal(
  request: FastifyRequest,
  reply: FastifyReply,
  failure: AuthFailure,
): Problem {
  const { kind, reason, token } = failure;
  request.log = request.log.child({ auth: { failure: kind, reason, token } });
  reply.log = request.log;
  return refusal(authFailureResponse(failure));
}
