import { describe, expect, it } from "vitest";
import { exactJson } from "../../src/http/exact-json.ts";

describe("exactJson", () => {
  it("when a plain JSON value (parsed JSON, no toJSON, no holes) holds no bigint, then it writes what JSON.stringify writes", () => {
    const values: unknown[] = [
      {},
      [],
      { a: 1, b: "two", c: null, d: [true, false, { e: '\u2028"\\' }] },
      { skipped: undefined, kept: 0, 'quoted"key': "x" },
      [undefined, 1, null],
      { error: 404, message: "no plant with id 5" },
      "text",
      -0.5,
      null,
    ];
    for (const value of values) expect(exactJson(value)).toBe(JSON.stringify(value));
  });

  it("when a value holds bigints, then each is written as its exact integer literal", () => {
    const id = 2n ** 63n - 1n;
    expect(exactJson({ id, name: "Fern", tags: [id, -id] })).toBe(
      `{"id":${id},"name":"Fern","tags":[${id},${-id}]}`,
    );
  });
});
