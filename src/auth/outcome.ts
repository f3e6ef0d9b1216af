// What authenticating one request comes to, for the HTTP answer and for the log.
import type { FastifyBaseLogger } from "fastify";

/** Who a token is, as far as it is known; never the token itself. */
export type TokenIdentity =
  | { kind: "static" }
  | { kind: "managed"; id: string; name: string }
  | { kind: "jwt"; subject?: string; jwtId?: string };

export interface Principal {
  token: TokenIdentity;
  /**
   * Who is making the request, for per-caller rate limits: however the Authorization header
   * is spelt, one caller has one key (a managed token's id, a JWT's subject, a static token's
   * place in PLANTSTORE_TOKENS). Never the token itself.
   */
  limitKey: string;
  /** The scopes the token carries; undefined when it carries no scope claim (full access). */
  scopes: readonly string[] | undefined;
}

/**
 * - missing: no Bearer credentials (401 without an error code, RFC 6750 §3.1);
 * - invalid_token: credentials that are not accepted (401);
 * - insufficient_scope: a valid token without a scope the operation needs (403);
 * - unavailable: a JWT whose keys could not be fetched, or a managed token the store could not
 *   look up; it may well be valid (503).
 */
export type FailureKind = "missing" | "invalid_token" | "insufficient_scope" | "unavailable";

export interface AuthFailure {
  ok: false;
  kind: FailureKind;
  /** A short machine-readable cause for logs and metrics, e.g. "expired", "revoked". */
  reason: string;
  /** Told to the client; never contains the token. */
  description: string;
  /** The token, when it could be identified (a managed token's id and name, a JWT's subject). */
  token?: TokenIdentity;
  /** insufficient_scope: the scopes the operation needs. */
  requiredScopes?: readonly string[];
}

export type AuthOutcome = { ok: true; principal: Principal } | AuthFailure;

export const failure = (
  kind: FailureKind,
  reason: string,
  description: string,
  token?: TokenIdentity,
): AuthFailure =>
  token === undefined
    ? { ok: false, kind, reason, description }
    : { ok: false, kind, reason, description, token };

/** Checks a request's Authorization header for one scheme; a promise only when it must wait. */
export type SchemeCheck = (authorization: string | undefined) => AuthOutcome | Promise<AuthOutcome>;

/** Where authentication writes what it notices (a refresh that failed, keys fetched). */
export type AuthLog = Pick<FastifyBaseLogger, "info" | "warn">;
