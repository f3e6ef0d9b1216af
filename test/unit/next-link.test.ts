// The next-page Link of every keyset list: written from the operation's path template and the
// request's path parameters, so a nested list links to its own parent's page.
import { describe, expect, it } from "vitest";
import { concretePath, nextPageLink } from "../../src/handlers/next-link.ts";

describe("nextPageLink", () => {
  it("when the list's path is templated, then the Link carries the request's ids, percent-encoded, not the template", () => {
    const link = nextPageLink(
      { template: "/parents/{id}/children/{kind}", path: { id: 9007199254740993n, kind: "a b/c" } },
      undefined,
      42n,
      10,
    );
    expect(link).toEqual({
      link: '</parents/9007199254740993/children/a%20b%2Fc?after=42&limit=10>; rel="next"',
    });
  });

  it("when the list's path has no template and a public URL is set, then the Link is absolute", () => {
    expect(nextPageLink({ template: "/plants" }, "https://plants.example", "7", 2)).toEqual({
      link: '<https://plants.example/plants?after=7&limit=2>; rel="next"',
    });
  });

  it("when the page is empty, then there is no Link", () => {
    expect(nextPageLink({ template: "/parents/{id}/children" }, undefined, undefined, 2)).toBe(
      undefined,
    );
  });

  it("when a path parameter of the template has no value, then it throws rather than write the template", () => {
    expect(() => concretePath("/parents/{id}/children", {})).toThrow(
      "no value for the path parameter id",
    );
  });
});
