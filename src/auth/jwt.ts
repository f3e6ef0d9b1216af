// JWTs from an identity provider, checked with jose: signature with the configured keys and
// algorithms only, issuer, audience, exp (required) and nbf with the configured clock skew.
import { createHash } from "node:crypto";
import { errors, type JWTPayload, jwtVerify } from "jose";
import type { JwtConfig } from "../config/config.ts";
import { KeysUnavailableError, loadVerificationKey } from "./jwt-keys.ts";
import type { AuthLog } from "./outcome.ts";
import { type AuthOutcome, failure, type TokenIdentity } from "./outcome.ts";

export type JwtVerifier = (token: string) => Promise<AuthOutcome>;

export function createJwtVerifier(config: JwtConfig, log: AuthLog): JwtVerifier {
  const key = loadVerificationKey(config.keySource, log);
  const options = {
    issuer: config.issuer,
    audience: config.audience,
    algorithms: [...config.algorithms],
    clockTolerance: config.clockSkewSeconds,
    requiredClaims: ["exp"],
  };
  return async (token) => {
    try {
      // jose overloads on the key's type; each branch is the same call.
      const { payload } =
        typeof key === "function"
          ? await jwtVerify(token, key, options)
          : await jwtVerify(token, key, options);
      const identity = identityOf(payload);
      const scopes = scopesOf(payload);
      if (scopes === "malformed") {
        return failure(
          "invalid_token",
          "malformed_scope",
          "the token's scope claim is not valid",
          identity,
        );
      }
      return {
        ok: true,
        principal: { token: identity, scopes, limitKey: limitKeyOf(identity, token) },
      };
    } catch (error) {
      return rejection(error);
    }
  };
}

/** The subject (the issuer is fixed by configuration); a token without one is its own caller. */
const limitKeyOf = (identity: TokenIdentity & { kind: "jwt" }, token: string): string =>
  identity.subject !== undefined
    ? `jwt:${identity.subject}`
    : `jwt-token:${createHash("sha256").update(token).digest("base64url")}`;

function identityOf(payload: JWTPayload): TokenIdentity & { kind: "jwt" } {
  return {
    kind: "jwt",
    ...(typeof payload.sub === "string" ? { subject: payload.sub } : {}),
    ...(typeof payload.jti === "string" ? { jwtId: payload.jti } : {}),
  };
}

/** OAuth's space-separated `scope` (RFC 8693 §4.2), or `scp` as a string or a list. */
function scopesOf(payload: JWTPayload): readonly string[] | undefined | "malformed" {
  const claim = payload["scope"] ?? payload["scp"];
  if (claim === undefined) return undefined;
  if (typeof claim === "string") return claim.split(" ").filter((scope) => scope !== "");
  if (Array.isArray(claim) && claim.every((scope) => typeof scope === "string")) return claim;
  return "malformed";
}

const CLAIM_FAILURES: Readonly<Record<string, [reason: string, description: string]>> = {
  nbf: ["not_yet_valid", "the token is not valid yet (nbf)"],
  iss: ["wrong_issuer", "the token's issuer is not accepted"],
  aud: ["wrong_audience", "the token's audience is not accepted"],
  exp: ["no_expiry", "the token must have an expiry (exp)"],
};

function rejection(error: unknown): AuthOutcome {
  const invalid = (reason: string, description: string, identity?: TokenIdentity) =>
    failure("invalid_token", reason, description, identity);
  // Claim checks come after the signature check, so these payloads are authentic.
  if (error instanceof errors.JWTExpired) {
    return invalid("expired", "the token has expired", identityOf(error.payload));
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    const [reason, description] = CLAIM_FAILURES[error.claim] ?? [
      "bad_claim",
      `the token's ${error.claim} claim is not valid`,
    ];
    return invalid(reason, description, identityOf(error.payload));
  }
  if (error instanceof KeysUnavailableError) {
    return failure(
      "unavailable",
      "keys_unavailable",
      "the keys to check this token could not be fetched; retry shortly",
    );
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return invalid("algorithm", "the token's signing algorithm is not accepted");
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return invalid("bad_signature", "the token's signature is not valid");
  }
  if (
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return invalid("unknown_key", "the token is not signed with a known key");
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return invalid("malformed", "the token is not a well-formed JWT");
  }
  // jose reports a key that does not fit the algorithm (an ES256 token, an RSA key) as a
  // TypeError; any such token is simply not one we accept.
  return invalid("unverifiable", "the token cannot be verified with the configured keys");
}
