import { describe, expect, it } from "vitest";
import { createStaticTokens, parseBearer } from "../../src/auth/authenticator.ts";

const checkStatic = createStaticTokens(["first-token-0123456789", "second-token-0123456789"]);
const verify = (header: string | undefined) => {
  const credentials = parseBearer(header);
  return credentials.ok ? checkStatic(credentials.token) : credentials;
};

describe("bearer credentials against static tokens", () => {
  const firstCaller = verify("Bearer first-token-0123456789");

  it.each([
    ["Bearer first-token-0123456789", "first"],
    ["bearer second-token-0123456789", "second"],
    ["BEARER first-token-0123456789", "first"],
    ["  Bearer \t first-token-0123456789  ", "first"],
    // The usual "Bearer " prefix, with more space or a tab after it or after the token.
    ["Bearer  first-token-0123456789", "first"],
    ["Bearer \tsecond-token-0123456789", "second"],
    ["Bearer first-token-0123456789\t", "first"],
  ])(
    "when the header is %j, then it is accepted with full access as the %s token's caller",
    (header, which) => {
      const outcome = verify(header);
      expect(outcome).toEqual({
        ok: true,
        principal: { token: { kind: "static" }, scopes: undefined, limitKey: expect.any(String) },
      });
      // One caller however the header is spelt, and never the token itself.
      const key = outcome.ok ? outcome.principal.limitKey : "";
      const firstKey = firstCaller.ok ? firstCaller.principal.limitKey : "";
      expect(key === firstKey).toBe(which === "first");
      expect(key).not.toContain("token-0123456789");
    },
  );

  it.each([
    [undefined, "missing"],
    ["", "missing"],
    ["Basic dXNlcjpwYXNz", "missing"],
    ["first-token-0123456789", "missing"],
    ["Bearer", "invalid_token"],
    ["Bearer ", "invalid_token"],
    ["Bearer first-token-0123456789 extra", "invalid_token"],
    ["Bearer first-token-0123456789\textra", "invalid_token"],
    ["Bearer first-token-012345678", "invalid_token"],
    ["Bearer First-token-0123456789", "invalid_token"],
    ["Bearer\u00a0first-token-0123456789", "missing"],
    ["Bearer first-token-0123456789\u00a0", "invalid_token"],
    ["Bearer first-token-0123456789x", "invalid_token"],
    ["Bearer first-token-0123456780", "invalid_token"],
    ["Bearer second-token-012345678", "invalid_token"],
  ])("when the header is %j, then it is refused as %s", (header, kind) => {
    expect(verify(header)).toMatchObject({ ok: false, kind });
  });
});

describe("static tokens of different lengths, one listed twice", () => {
  const tokens = ["short-token-0123", "a-much-longer-token-0123456789", "short-token-0123"];
  const check = createStaticTokens(tokens);
  const keyOf = (token: string) => {
    const outcome = check(token);
    return outcome.ok ? outcome.principal.limitKey : outcome.kind;
  };

  it("when each listed token is presented, then each is a caller of its own, named by its first place in the list", () => {
    expect(tokens.map(keyOf)).toEqual(["static:0", "static:1", "static:0"]);
  });

  it("when another list is built with its own prefix, then its first token is not the same caller", () => {
    const metrics = createStaticTokens(["short-token-0123"], "metrics")("short-token-0123");
    expect(metrics.ok && metrics.principal.limitKey).toBe("metrics:0");
  });

  it.each([
    "short-token-012",
    "short-token-01234",
    "short-token-0123short-token-0123",
    "a-much-longer-token-012345678",
    "a-much-longer-token-0123456789a",
    "A-much-longer-token-0123456789",
    "short-token-0123".repeat(1000),
  ])("when %j is presented (a near miss of a listed one), then it is refused", (token) => {
    expect(keyOf(token)).toBe("invalid_token");
  });

  it("when an empty token is listed, then the list is refused", () => {
    expect(() => createStaticTokens(["short-token-0123", ""])).toThrow(/empty/);
  });
});
