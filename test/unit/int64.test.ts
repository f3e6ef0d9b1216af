import { describe, expect, it } from "vitest";
import {
  canonicalInteger,
  INT64_MAX,
  INT64_MIN,
  integerFromLiteral,
  literalAt,
} from "../../src/text/int64.ts";

describe("integerFromLiteral", () => {
  it.each([
    ["0", 0n],
    ["-0", 0n],
    ["42", 42n],
    ["-17", -17n],
    ["9007199254740993", 9007199254740993n],
    ["9223372036854775807", INT64_MAX],
    ["-9223372036854775808", INT64_MIN],
    ["1.0", 1n],
    ["1e2", 100n],
    ["1.5e1", 15n],
    ["12300e-2", 123n],
    ["0.0", 0n],
    ["9.223372036854775807e18", INT64_MAX],
  ])("when the literal is %s, then the value is exact", (literal, expected) => {
    expect(integerFromLiteral(literal)).toBe(expected);
  });

  it.each(["1.5", "0.1", "1.0000000000000000001", "1e-1", "123e-5"])(
    "when the literal %s has a fractional part, then it is not an integer",
    (literal) => {
      expect(integerFromLiteral(literal)).toBeNull();
    },
  );

  it.each(["1e999999999", "99999999999999999999999999", "-1e400"])(
    "when the literal %s is far outside int64, then the value is outside int64 without a huge BigInt",
    (literal) => {
      const value = integerFromLiteral(literal);
      expect(value).not.toBeNull();
      expect(value !== null && (value > INT64_MAX || value < INT64_MIN)).toBe(true);
    },
  );
});

describe("literalAt", () => {
  it.each([
    ['{"id":5,"name":"x"}', "5"],
    ['{ "name" : "x" , "id" : -12.50e3 }', "-12.50e3"],
    ['{"nested":{"id":1},"id":2}', "2"],
    ['{"list":[{"id":1},"]}",{"a":"\\"}"}],"id":3}', "3"],
    ['{"\\u0069d":7}', "7"],
    ['{"id":1,"id":9223372036854775807}', "9223372036854775807"],
    ['{"name":"id","x":"\\\\","id":8}', "8"],
    ['{"id":"5"}', '"5"'],
    ['{"name":"x"}', undefined],
  ])("when the text is %s, then the top-level id literal is %s", (text, expected) => {
    expect(literalAt(text, ["id"])).toBe(expected);
  });

  it("when a value is nested 100000 deep, then scanning does not overflow the stack", () => {
    const deep = `{"x":${"[".repeat(100_000)}${"]".repeat(100_000)},"id":1}`;
    expect(literalAt(deep, ["id"])).toBe("1");
  });

  it.each([
    ['{"a":[1,{"b":[7,{"id":9007199254740993}]}]}', ["a", 1, "b", 1, "id"], "9007199254740993"],
    ["[[1,2],[3, -4.0e1 ]]", [1, 1], "-4.0e1"],
    ['{"a":{"b":1},"a":{"b":2}}', ["a", "b"], "2"],
    ['{"a":[1]}', ["a", 3], undefined],
    ['{"a":1}', ["a", "b"], undefined],
  ])("when the text is %s, then the literal at %j is %s", (text, path, expected) => {
    expect(literalAt(text, path)).toBe(expected);
  });
});

describe("canonicalInteger", () => {
  it.each([
    ["0", 0n],
    ["7", 7n],
    ["-7", -7n],
    ["9223372036854775808", 2n ** 63n],
  ])("when the text is %s, then it is %s", (text, expected) => {
    expect(canonicalInteger(text)).toBe(expected);
  });

  it.each(["", "-", "-0", "01", "+1", "1e2", "0x10", "1.0", " 1", "1 ", "abc", "１"])(
    "when the text is %j, then it is no canonical integer",
    (text) => {
      expect(canonicalInteger(text)).toBeUndefined();
    },
  );
});
