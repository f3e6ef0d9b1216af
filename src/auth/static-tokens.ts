// The fixed list of PLANTSTORE_TOKENS, for bootstrap and tests.
import { hash } from "node:crypto";
import { type AuthOutcome, failure } from "./outcome.ts";

// One-shot hash (a string is hashed as UTF-8), given as text: Node makes a string of a digest
// several times faster than a Buffer (about 0.45 against 1.7 µs here), and this runs on every
// request.
const digest = (value: string): string => hash("sha256", value, "base64url");

/** Whether two digests are equal, looking at every character whatever differs first. */
function sameDigest(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

export function createStaticTokens(tokens: readonly string[]): (token: string) => AuthOutcome {
  // Comparing fixed-length digests in full, and always against every token, keeps the time
  // taken independent of how much of a guess matched and of which token it was.
  const accepted = tokens.map(digest);
  return (token) => {
    const candidate = digest(token);
    let matched = false;
    for (const known of accepted) matched = sameDigest(known, candidate) || matched;
    if (!matched) return failure("invalid_token", "unknown", "the bearer token is not valid");
    const limitKey = `static:${candidate}`;
    return { ok: true, principal: { token: { kind: "static" }, scopes: undefined, limitKey } };
  };
}
