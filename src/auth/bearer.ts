// Reads the Authorization header: the Bearer scheme and exactly one token.
import { type AuthFailure, failure } from "./outcome.ts";

export type Credentials = { ok: true; token: string } | AuthFailure;

const USUAL_PREFIX = "Bearer ";

export function parseBearer(authorization: string | undefined): Credentials {
  // The usual spelling, read without splitting (this runs on every request): "Bearer " and a
  // token with no SP or HTAB in it is exactly what the general reading below accepts as such.
  if (authorization?.startsWith(USUAL_PREFIX)) {
    const token = authorization.slice(USUAL_PREFIX.length);
    if (token !== "" && !token.includes(" ") && !token.includes("\t")) return { ok: true, token };
  }
  // Only SP and HTAB separate the scheme and the token (RFC 9110); String.trim() and \s
  // would also accept NBSP and other Unicode spaces.
  const words = authorization?.split(/[ \t]+/).filter((word) => word !== "") ?? [];
  if (words.length === 0) {
    return failure("missing", "no_credentials", "an Authorization: Bearer header is required");
  }
  const [scheme = "", token = "", ...extra] = words;
  // The scheme name is case-insensitive (RFC 7235); the token is compared exactly.
  if (scheme.toLowerCase() !== "bearer") {
    return failure(
      "missing",
      "other_scheme",
      "the Authorization header must use the Bearer scheme",
    );
  }
  if (token === "" || extra.length > 0) {
    return failure("invalid_token", "malformed", "the bearer credentials are malformed");
  }
  return { ok: true, token };
}
