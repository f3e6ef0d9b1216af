import { describe, expect, it } from "vitest";
import { createContractChecker, type Exchange } from "../helpers/contract.ts";

// The checker every test's answers go through (test/helpers/contract.ts) must itself catch drift.
describe("the contract checker", () => {
  const check = createContractChecker();
  const json = { "content-type": "application/json; charset=utf-8" };
  const error = (status: number) => JSON.stringify({ error: status, message: "m" });
  const exchange = (overrides: Partial<Exchange>): Exchange => ({
    method: "POST",
    url: "/plants",
    status: 200,
    headers: json,
    body: JSON.stringify({ name: "Fern" }),
    ...overrides,
  });

  it("when an answer is documented, then it passes", () => {
    expect(check(exchange({}))).toEqual([]);
    expect(check(exchange({ status: 409, body: error(409) }))).toEqual([]);
    expect(
      check(exchange({ method: "GET", url: "/nowhere", status: 404, body: error(404) })),
    ).toEqual([]);
  });

  it.each<[string, Partial<Exchange>, RegExp]>([
    ["an undocumented status", { status: 418, body: error(418) }, /status not documented/],
    ["a 200 that is not a Plant", { body: JSON.stringify({ id: 1 }) }, /does not match the schema/],
    [
      "an Error with a string code",
      { status: 409, body: '{"error":"409","message":"m"}' },
      /schema/,
    ],
    [
      "another content type",
      { headers: { "content-type": "text/plain" } },
      /content type text\/plain/,
    ],
    [
      "a 429 without Retry-After",
      { status: 429, body: error(429) },
      /Retry-After header is missing/,
    ],
    ["a 401 without a challenge", { status: 401, body: error(401) }, /WWW-Authenticate/],
    ["a 404 without the Error body", { url: "/x", status: 404, body: "Not Found" }, /not JSON/],
    ["a 405 without Allow", { method: "GET", status: 405, body: error(405) }, /Allow header/],
    ["a 302 for an unknown path", { url: "/x", status: 302, body: "" }, /no operation matches/],
  ])("when the answer is %s, then the checker says so", (_what, overrides, problem) => {
    expect(check(exchange(overrides)).join("\n")).toMatch(problem);
  });
});
