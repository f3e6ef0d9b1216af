// The Authorization header's reading (parseBearer) and the static tokens' check, outcome by
// outcome: the reason each refusal names goes to the log and the metrics, which
// test/unit/bearer.test.ts (the answer's kind) does not read.
import { describe, expect, it } from "vitest";
import { createStaticTokens, parseBearer } from "../../src/auth/authenticator.ts";

const NO_CREDENTIALS = {
  ok: false,
  kind: "missing",
  reason: "no_credentials",
  description: "an Authorization: Bearer header is required",
};
const OTHER_SCHEME = {
  ok: false,
  kind: "missing",
  reason: "other_scheme",
  description: "the Authorization header must use the Bearer scheme",
};
const MALFORMED = {
  ok: false,
  kind: "invalid_token",
  reason: "malformed",
  description: "the bearer credentials are malformed",
};

describe("reading the Authorization header", () => {
  it.each([
    [undefined, NO_CREDENTIALS],
    ["", NO_CREDENTIALS],
    [" \t ", NO_CREDENTIALS],
    ["Basic dXNlcjpwYXNz", OTHER_SCHEME],
    ["tok", OTHER_SCHEME],
    ["Bearer", MALFORMED],
    ["Bearer ", MALFORMED],
    ["Bearer  ", MALFORMED],
    ["Bearer a b", MALFORMED],
    ["Bearer a\tb", MALFORMED],
    ["Bearer a", { ok: true, token: "a" }],
    ["bearer \t a ", { ok: true, token: "a" }],
  ])("when the header is %j, then it reads as %j", (header, expected) => {
    expect(parseBearer(header)).toEqual(expected);
  });
});

describe("static tokens", () => {
  it("when a listed token is presented, then its caller is named by the default list prefix and its place; any other token is unknown", () => {
    const check = createStaticTokens(["first-token", "second-token"]);
    expect(check("second-token")).toEqual({
      ok: true,
      principal: { token: { kind: "static" }, scopes: undefined, limitKey: "static:1" },
    });
    expect(check("second-token-x")).toEqual({
      ok: false,
      kind: "invalid_token",
      reason: "unknown",
      description: "the bearer token is not valid",
    });
  });
});
