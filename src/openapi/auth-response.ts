// The answer to a refused authentication: 401 or 403 with the RFC 6750 challenge, or 503 when
// a JWT's keys could not be fetched or a managed token could not be looked up. The
// description never holds the token.
import type { AuthFailure } from "../auth/outcome.ts";
import { type ErrorAnswer, errorResponse } from "./responses.ts";

const REALM = 'realm="plantstore"';
// Long enough for a JWKS URL or the database to answer again; the same as for a store failure.
const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

export function authFailureResponse(failure: AuthFailure): ErrorAnswer {
  const description = `error_description=${quoted(failure.description)}`;
  switch (failure.kind) {
    case "missing":
      // RFC 6750 §3.1: no error code when no credentials were sent.
      return errorResponse(401, failure.description, { "www-authenticate": `Bearer ${REALM}` });
    case "invalid_token":
      return errorResponse(401, failure.description, {
        "www-authenticate": `Bearer ${REALM}, error="invalid_token", ${description}`,
      });
    case "insufficient_scope": {
      const scope = quoted((failure.requiredScopes ?? []).join(" "));
      return errorResponse(403, failure.description, {
        "www-authenticate": `Bearer ${REALM}, error="insufficient_scope", ${description}, scope=${scope}`,
      });
    }
    case "unavailable":
      return errorResponse(503, failure.description, {
        "retry-after": String(UNAVAILABLE_RETRY_AFTER_SECONDS),
      });
  }
}

/**
 * A quoted-string whose content RFC 6750 §3 allows in error_description and scope: printable
 * ASCII other than `"` and `\`, which become `'` and `/`; anything else becomes `?`.
 */
function quoted(text: string): string {
  const safe = text
    .replaceAll('"', "'")
    .replaceAll("\\", "/")
    .replace(/[^\x20-\x7e]/g, "?");
  return `"${safe}"`;
}
