// Authentication, the step every request with credentials takes: the Authorization header
// read (the Bearer scheme and exactly one token), and the token checked as its shape says:
// "ps_…" is a managed token, three dot-separated parts are a JWT (when configured), anything
// else is looked for in PLANTSTORE_TOKENS. The document's security schemes map to these checks
// (securitySchemes); src/http/authentication.ts picks them per operation, and the request
// runner (src/http/runner.ts) runs them.
import { JWT_SHAPE, type JwtConfig } from "../config/config.ts";
import type { TokenStore } from "../store/tokens.ts";
import { TOKEN_PREFIX } from "./managed-token.ts";
import { type ManagedTokensOptions, openManagedTokens } from "./managed-tokens.ts";
import {
  type AuthFailure,
  type AuthLog,
  type AuthOutcome,
  failure,
  type SchemeCheck,
} from "./outcome.ts";

export interface Authenticator {
  /**
   * Who the Authorization header's bearer token belongs to; scopes are checked apart. A
   * promise only where the answer needs one (a managed token's lookup, a JWT's signature);
   * a static token or a missing or malformed header is answered at once. May throw.
   */
  identify(authorization: string | undefined): AuthOutcome | Promise<AuthOutcome>;
  /** Stops refreshing managed tokens and records their last uses. */
  close(): Promise<void>;
}

/** Built once the app's logger exists (see AppOptions). */
export type AuthenticatorFactory = (log: AuthLog) => Promise<Authenticator>;

export interface AuthenticatorOptions {
  staticTokens: readonly string[];
  tokens: TokenStore;
  jwt: JwtConfig | undefined;
  log: AuthLog;
  managed?: Omit<ManagedTokensOptions, "log">;
}

export async function createAuthenticator(options: AuthenticatorOptions): Promise<Authenticator> {
  const { log } = options;
  const checkStatic = createStaticTokens(options.staticTokens);
  // jose is loaded only when JWTs are configured.
  const verifyJwt =
    options.jwt === undefined
      ? undefined
      : (await import("./jwt.ts")).createJwtVerifier(options.jwt, log);
  const managed = await openManagedTokens(options.tokens, { ...options.managed, log });

  // Not async: a static token is checked at once, and each async layer would cost the request
  // a promise and turns of the microtask queue.
  const check = (token: string): AuthOutcome | Promise<AuthOutcome> => {
    if (token.startsWith(TOKEN_PREFIX)) return managed.check(token);
    if (JWT_SHAPE.test(token)) {
      return verifyJwt === undefined
        ? failure("invalid_token", "jwt_not_configured", "the bearer token is not valid")
        : verifyJwt(token);
    }
    return checkStatic(token);
  };

  return {
    identify(authorization) {
      const credentials = parseBearer(authorization);
      return credentials.ok ? check(credentials.token) : credentials;
    },
    close: () => managed.close(),
  };
}

/**
 * The security schemes of the document and what checks each on this server: `bearerAuth` by
 * the authenticator (static, managed and JWT tokens), `metricsToken` by GET /metrics's own
 * token, or not at all when none is configured. A scheme the document adds needs an entry
 * here, or start-up stops (src/http/authentication.ts).
 */
export function securitySchemes(
  authenticator: Pick<Authenticator, "identify">,
  metricsToken: string | undefined,
): Record<string, SchemeCheck | "open"> {
  return {
    bearerAuth: (authorization) => authenticator.identify(authorization),
    metricsToken: metricsToken === undefined ? "open" : metricsTokenCheck(metricsToken),
  };
}

/**
 * PLANTSTORE_METRICS_TOKEN, checked like a static token; a caller of its own for the rate
 * limit, whichever static tokens there are.
 */
function metricsTokenCheck(token: string): SchemeCheck {
  const known = createStaticTokens([token], "metrics");
  return (authorization) => {
    const credentials = parseBearer(authorization);
    return credentials.ok ? known(credentials.token) : credentials;
  };
}

export type Credentials = { ok: true; token: string } | AuthFailure;

const USUAL_PREFIX = "Bearer ";

/** Reads the Authorization header: the Bearer scheme and exactly one token. */
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
 * A check of bearer tokens against a fixed list (PLANTSTORE_TOKENS, for bootstrap and tests). `keyPrefix` names the list in the caller's
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
