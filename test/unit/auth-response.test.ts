import { describe, expect, it } from "vitest";
import { failure } from "../../src/auth/outcome.ts";
import { authFailureResponse } from "../../src/openapi/auth-response.ts";

describe("answers to refused authentication", () => {
  it("when a description holds quotes, backslashes or non-ASCII, then the challenge stays one valid quoted-string", () => {
    const response = authFailureResponse(
      failure("invalid_token", "test", 'the "kid" \\ is ünknown\r\nX-Injected: 1'),
    );
    expect(response.status).toBe(401);
    expect(response.headers?.["www-authenticate"]).toBe(
      `Bearer realm="plantstore", error="invalid_token", error_description="the 'kid' / is ?nknown??X-Injected: 1"`,
    );
  });

  it("when the scope is insufficient, then 403 names the scopes needed", () => {
    const response = authFailureResponse({
      ...failure("insufficient_scope", "insufficient_scope", "needs more"),
      requiredScopes: ["plants:write", "plants:admin"],
    });
    expect(response.status).toBe(403);
    expect(response.headers?.["www-authenticate"]).toBe(
      'Bearer realm="plantstore", error="insufficient_scope", error_description="needs more", scope="plants:write plants:admin"',
    );
  });

  it("when a JWT's keys could not be fetched, then 503 with Retry-After and no challenge", () => {
    const response = authFailureResponse(failure("unavailable", "keys_unavailable", "retry"));
    expect(response).toEqual({
      status: 503,
      body: { error: 503, message: "retry" },
      headers: { "retry-after": "2" },
    });
  });
});
