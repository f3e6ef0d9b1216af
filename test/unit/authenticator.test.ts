// The authenticator's choice of check by the token's shape, and the document's security schemes
// (src/auth/authenticator.ts), on a store double: the outcomes the suites through the app read
// only as a status.
import { describe, expect, it, vi } from "vitest";
import { createAuthenticator, securitySchemes } from "../../src/auth/authenticator.ts";
import { failure } from "../../src/auth/outcome.ts";
import { quietLog, storeDouble } from "../helpers/token-store-double.ts";

describe("authenticator", () => {
  it("when a JWT is presented and none are configured, then it is refused as not valid, for that reason", async () => {
    const authenticator = await createAuthenticator({
      staticTokens: ["static-token-0123456789"],
      tokens: storeDouble().store,
      jwt: undefined,
      log: quietLog,
      managed: { retentionMs: 0 },
    });
    try {
      expect(authenticator.identify("Bearer aaaa.bbbb.cccc")).toEqual({
        ok: false,
        kind: "invalid_token",
        reason: "jwt_not_configured",
        description: "the bearer token is not valid",
      });
    } finally {
      await authenticator.close();
    }
  });
});

describe("security schemes", () => {
  const other = failure("invalid_token", "unknown", "the bearer token is not valid");

  it("when a metrics token is configured, then metricsToken accepts it alone, as a caller of its own, and bearerAuth is not asked", () => {
    const identify = vi.fn(() => other);
    const { metricsToken } = securitySchemes({ identify }, "metrics-token-0123456789");
    if (metricsToken === undefined || metricsToken === "open") throw new Error("not checked");
    expect(metricsToken("Bearer metrics-token-0123456789")).toEqual({
      ok: true,
      principal: { token: { kind: "static" }, scopes: undefined, limitKey: "metrics:0" },
    });
    expect(metricsToken("Bearer metrics-token-012345678")).toEqual(other);
    expect(metricsToken(undefined)).toMatchObject({ ok: false, kind: "missing" });
    expect(identify).not.toHaveBeenCalled();
  });

  it("when no metrics token is configured, then metricsToken is open, and bearerAuth asks the authenticator", () => {
    const identify = vi.fn(() => other);
    const schemes = securitySchemes({ identify }, undefined);
    expect(schemes["metricsToken"]).toBe("open");
    const bearer = schemes["bearerAuth"];
    if (bearer === undefined || bearer === "open") throw new Error("not checked");
    expect(bearer("Bearer anything")).toBe(other);
    expect(identify).toHaveBeenCalledWith("Bearer anything");
  });
});
