// The document's paths are matched as written: literal segments byte for byte, a variable as
// one or more characters of one segment.
import { describe, expect, it } from "vitest";
import { literalPartsOf } from "../../src/text/path-template.ts";

describe("literal parts of a path template", () => {
  it.each([
    ["/plants/{id}", "/plants/1", true],
    ["/plants/{id}", "/plants/%31", true],
    ["/plants/{id}", "/plants/", false],
    ["/plants/{id}", "/plants", false],
    ["/plants/{id}", "/pl%61nts/1", false],
    ["/plants/{id}", "/plants/1/", false],
    ["/plants/{id}", "/plants/1/x", false],
    ["/plants/{id}", "//plants/1", false],
    ["/files/{name}.json", "/files/a.json", true],
    ["/files/{name}.json", "/files/.json", false],
    ["/files/{name}.json", "/files/a.jsonx", false],
    ["/plants", "/plants", true],
    ["/plants", "/plants/", false],
    ["/plants", "/pl%61nts", false],
  ])("when %s meets %s, then it names it: %s", (template, path, names) => {
    expect(literalPartsOf(template)(path)).toBe(names);
  });
});
