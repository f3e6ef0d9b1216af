// The scopes step: the scopes an operation lists in x-required-scopes, which a token that carries
// any scope claim at all must hold (a token without one has full access).
import type { Operation } from "openapi-backend";
import { type AuthOutcome, failure, type Principal } from "../auth/outcome.ts";
import { SCOPES_EXTENSION } from "../openapi/document.ts";

/** The operation's x-required-scopes: a list of scope names, or none. */
export function requiredScopes(operation: Operation): readonly string[] {
  const scopes: unknown = (operation as unknown as Record<string, unknown>)[SCOPES_EXTENSION];
  if (scopes === undefined) return [];
  if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === "string")) {
    throw new Error(`${SCOPES_EXTENSION} of ${operation.operationId} must be a list of strings`);
  }
  return scopes;
}

/** The principal, or insufficient_scope when it carries scopes and lacks one of `required`. */
export function checkScopes(principal: Principal, required: readonly string[]): AuthOutcome {
  const { scopes } = principal;
  const missing = scopes === undefined ? [] : required.filter((scope) => !scopes.includes(scope));
  if (missing.length === 0) return { ok: true, principal };
  return {
    ...failure(
      "insufficient_scope",
      "insufficient_scope",
      `the token lacks the scope ${missing.join(" ")} that this operation needs`,
      principal.token,
    ),
    requiredScopes: required,
  };
}
