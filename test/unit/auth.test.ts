import { describe, expect, it } from "vitest";
import { createTokenVerifier } from "../../src/http/auth.ts";

const verifier = createTokenVerifier(["first-token-0123456789", "second-token-0123456789"]);

describe("bearer token verification", () => {
  it.each([
    "Bearer first-token-0123456789",
    "bearer second-token-0123456789",
    "BEARER first-token-0123456789",
    "  Bearer   first-token-0123456789  ",
  ])("when the header is %j, then it is accepted", (header) => {
    expect(verifier.verify(header)).toEqual({ ok: true });
  });

  it.each([
    [undefined, "missing"],
    ["", "missing"],
    ["Basic dXNlcjpwYXNz", "missing"],
    ["first-token-0123456789", "missing"],
    ["Bearer", "invalid"],
    ["Bearer ", "invalid"],
    ["Bearer first-token-0123456789 extra", "invalid"],
    ["Bearer first-token-012345678", "invalid"],
    ["Bearer First-token-0123456789", "invalid"],
    ["Bearer\u00a0first-token-0123456789", "missing"],
    ["Bearer first-token-0123456789\u00a0", "invalid"],
    ["Bearer first-token-0123456789x", "invalid"],
  ])("when the header is %j, then it is refused as %s", (header, reason) => {
    expect(verifier.verify(header)).toMatchObject({ ok: false, reason });
  });
});
