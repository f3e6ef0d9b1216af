// The security schemes of the document and what checks each on this server: `bearerAuth` by
// the authenticator (static, managed and JWT tokens), `metricsToken` by GET /metrics's own
// token, or not at all when none is configured. A scheme the document adds needs an entry
// here, or start-up stops (src/openapi/security.ts).
import type { SchemeCheck } from "../openapi/security.ts";
import type { Authenticator } from "./authenticator.ts";
import { parseBearer } from "./bearer.ts";
import { createStaticTokens } from "./static-tokens.ts";

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
