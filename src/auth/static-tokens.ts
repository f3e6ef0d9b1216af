// The fixed list of PLANTSTORE_TOKENS, for bootstrap and tests.
import { hash, timingSafeEqual } from "node:crypto";
import { type AuthOutcome, failure } from "./outcome.ts";

// One-shot hash: no Hash object per request (a string is hashed as UTF-8).
const digest = (value: string): Buffer => hash("sha256", value, "buffer");

export function createStaticTokens(tokens: readonly string[]): (token: string) => AuthOutcome {
  // Comparing fixed-length digests with timingSafeEqual, and always against every token,
  // keeps the time taken independent of how much of a guess matched and of which token it was.
  const accepted = tokens.map(digest);
  return (token) => {
    const candidate = digest(token);
    let matched = false;
    for (const known of accepted) {
      matched = timingSafeEqual(known, candidate) || matched;
    }
    if (!matched) return failure("invalid_token", "unknown", "the bearer token is not valid");
    const limitKey = `static:${candidate.toString("base64url")}`;
    return { ok: true, principal: { token: { kind: "static" }, scopes: undefined, limitKey } };
  };
}
