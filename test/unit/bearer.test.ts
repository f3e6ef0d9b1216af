import { describe, expect, it } from "vitest";
import { parseBearer } from "../../src/auth/bearer.ts";
import { createStaticTokens } from "../../src/auth/static-tokens.ts";

const checkStatic = createStaticTokens(["first-token-0123456789", "second-token-0123456789"]);
const verify = (header: string | undefined) => {
  const credentials = parseBearer(header);
  return credentials.ok ? checkStatic(credentials.token) : credentials;
};

describe("bearer credentials against static tokens", () => {
  it.each([
    "Bearer first-token-0123456789",
    "bearer second-token-0123456789",
    "BEARER first-token-0123456789",
    "  Bearer   first-token-0123456789  ",
  ])("when the header is %j, then it is accepted with full access", (header) => {
    expect(verify(header)).toEqual({
      ok: true,
      principal: { token: { kind: "static" }, scopes: undefined },
    });
  });

  it.each([
    [undefined, "missing"],
    ["", "missing"],
    ["Basic dXNlcjpwYXNz", "missing"],
    ["first-token-0123456789", "missing"],
    ["Bearer", "invalid_token"],
    ["Bearer ", "invalid_token"],
    ["Bearer first-token-0123456789 extra", "invalid_token"],
    ["Bearer first-token-012345678", "invalid_token"],
    ["Bearer First-token-0123456789", "invalid_token"],
    ["Bearer\u00a0first-token-0123456789", "missing"],
    ["Bearer first-token-0123456789\u00a0", "invalid_token"],
    ["Bearer first-token-0123456789x", "invalid_token"],
  ])("when the header is %j, then it is refused as %s", (header, kind) => {
    expect(verify(header)).toMatchObject({ ok: false, kind });
  });
});
