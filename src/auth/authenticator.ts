// Bearer authentication for every request. How a token is checked follows from its shape:
// "ps_…" is a managed token, three dot-separated parts are a JWT (when configured), anything
// else is looked for in PLANTSTORE_TOKENS. Then (checkScopes, once the caller's rate limit is
// counted) the scopes the operation needs, if the token carries any scope claim at all: a
// token without one has full access.
import { JWT_SHAPE, type JwtConfig } from "../config/config.ts";
import type { TokenStore } from "../store/tokens.ts";
import { parseBearer } from "./bearer.ts";
import { isManagedToken } from "./managed-token.ts";
import { type AuthLog, type ManagedTokensOptions, openManagedTokens } from "./managed-tokens.ts";
import { type AuthOutcome, failure, type Principal } from "./outcome.ts";
import { createStaticTokens } from "./static-tokens.ts";

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
    if (isManagedToken(token)) return managed.check(token);
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
