// The fixed list of PLANTSTORE_TOKENS, for bootstrap and tests.
import { type AuthOutcome, failure } from "./outcome.ts";

/**
 * Whether `presented` is `known`, reading every character of `presented` whatever differs
 * first: the time taken depends on the presented token's length, which its sender knows, and
 * on nothing of the known one's characters. `known` is never empty (see createStaticTokens).
 */
function sameToken(known: string, presented: string): boolean {
  let difference = known.length ^ presented.length;
  // Wrapping around a shorter known token keeps every read inside it; the lengths already
  // differ then.
  for (let i = 0; i < presented.length; i++) {
    difference |= known.charCodeAt(i % known.length) ^ presented.charCodeAt(i);
  }
  return difference === 0;
}

/**
 * A check of bearer tokens against a fixed list. `keyPrefix` names the list in the caller's
 * rate-limit key (`static:0` is the first of PLANTSTORE_TOKENS), so that two lists never share
 * a caller.
 */
export function createStaticTokens(
  tokens: readonly string[],
  keyPrefix = "static",
): (token: string) => AuthOutcome {
  if (tokens.some((token) => token === "")) throw new Error("a static token cannot be empty");
  // Compared in full against every token, the time taken is independent of how much of a
  // guess matched and of which token it was. No digest per request: comparing the text itself
  // keeps that property, and the SHA-256 was 2-3% of a request's CPU in a profile (BENCHMARKS.md,
  // "Static token comparison").
  const known = [...new Set(tokens)];
  // Longer than every token cannot match: refused before it is read, so that a 16 KiB header
  // costs no more than the longest token (this only tells how long that is, at most).
  const longest = Math.max(0, ...known.map((token) => token.length));
  // The caller's rate-limit key: which token, by its first place in the list, never the token.
  const limitKeys = known.map((token) => `${keyPrefix}:${tokens.indexOf(token)}`);
  return (token) => {
    let matched = -1;
    if (token.length <= longest) {
      for (let at = 0; at < known.length; at++) {
        if (sameToken(known[at] as string, token)) matched = at;
      }
    }
    if (matched === -1) return failure("invalid_token", "unknown", "the bearer token is not valid");
    const limitKey = limitKeys[matched] as string;
    return { ok: true, principal: { token: { kind: "static" }, scopes: undefined, limitKey } };
  };
}
