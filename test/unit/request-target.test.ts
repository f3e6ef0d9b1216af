// A malformed percent-encoding in the query is refused naming the parameter, as the router
// refuses one in the path; read in one pass, so a hostile query costs linear time.
import { describe, expect, it } from "vitest";
import { queryEncodingProblem } from "../../src/text/request-target.ts";

describe("percent-encoding in the query", () => {
  it.each([
    ["/plants?tag=%E0%A4%A", "query parameter tag has malformed percent-encoding"],
    ["/plants?limit=%ZZ", "query parameter limit has malformed percent-encoding"],
    ["/plants?after=%", "query parameter after has malformed percent-encoding"],
    ["/plants?limit=2&after=%C3", "query parameter after has malformed percent-encoding"],
    ["/plants?t%61g=%FF", "query parameter tag has malformed percent-encoding"],
    ["/plants?%zz=1", 'query parameter name "%zz" has malformed percent-encoding'],
    ["/plants?%E0%A4%A", 'query parameter name "%E0%A4%A" has malformed percent-encoding'],
    ["http://host/plants?%=", 'query parameter name "%" has malformed percent-encoding'],
  ])("when the target is %s, then it says %s", (target, message) => {
    expect(queryEncodingProblem(target)).toBe(message);
  });

  it.each([
    "/plants",
    "/plants?",
    "/plants?limit=2&after=1",
    "/plants?tag=%E0%A4%A4",
    "/plants?tag=a+b%2Bc",
    "/plants?%74ag=%25ZZ",
    "/pl%ZZants?limit=1",
    "/plants?limit=1#%ZZ",
  ])("when the target is %s, then the query is well encoded", (target) => {
    expect(queryEncodingProblem(target)).toBeUndefined();
  });

  it("when a query is megabytes of escapes and separators, then it is read through, to the one bad part", () => {
    const good = "a=%41%42&".repeat(100_000);
    expect(queryEncodingProblem(`/plants?${good}b=%4`)).toBe(
      "query parameter b has malformed percent-encoding",
    );
    expect(queryEncodingProblem(`/plants?${"%".repeat(1_000_000)}`)).toMatch(
      /^query parameter name/,
    );
    expect(queryEncodingProblem(`/plants?${"&".repeat(1_000_000)}%41`)).toBeUndefined();
  });
});
