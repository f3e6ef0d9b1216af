// Bearer authentication against a fixed set of tokens.
import { createHash, timingSafeEqual } from "node:crypto";

export type AuthOutcome =
  | { ok: true }
  | { ok: false; reason: "missing" | "invalid"; description: string };

const digest = (value: string): Buffer => createHash("sha256").update(value, "utf8").digest();

export interface TokenVerifier {
  verify(authorization: string | undefined): AuthOutcome;
}

export function createTokenVerifier(tokens: readonly string[]): TokenVerifier {
  // Comparing fixed-length digests with timingSafeEqual, and always against every token,
  // keeps the time taken independent of how much of a guess matched and of which token it was.
  const accepted = tokens.map(digest);
  return {
    verify(authorization) {
      const credentials = parseBearer(authorization);
      if (credentials.ok === false) return credentials;
      const candidate = digest(credentials.token);
      let matched = false;
      for (const token of accepted) {
        matched = timingSafeEqual(token, candidate) || matched;
      }
      return matched
        ? { ok: true }
        : { ok: false, reason: "invalid", description: "the bearer token is not valid" };
    },
  };
}

type Credentials = { ok: true; token: string } | Extract<AuthOutcome, { ok: false }>;

function parseBearer(authorization: string | undefined): Credentials {
  // Only SP and HTAB separate the scheme and the token (RFC 9110); String.trim() and \s
  // would also accept NBSP and other Unicode spaces.
  const words = authorization?.split(/[ \t]+/).filter((word) => word !== "") ?? [];
  if (words.length === 0) {
    return {
      ok: false,
      reason: "missing",
      description: "an Authorization: Bearer header is required",
    };
  }
  const [scheme = "", token = "", ...extra] = words;
  // The scheme name is case-insensitive (RFC 7235); the token is compared exactly.
  if (scheme.toLowerCase() !== "bearer") {
    return {
      ok: false,
      reason: "missing",
      description: "the Authorization header must use the Bearer scheme",
    };
  }
  if (token === "" || extra.length > 0) {
    return { ok: false, reason: "invalid", description: "the bearer credentials are malformed" };
  }
  return { ok: true, token };
}
