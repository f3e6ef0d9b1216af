// What the PostgreSQL store sends through a pooler in place of bound parameters (numbers
// written into the text), and which failures mean the connection itself is gone.
import { describe, expect, it } from "vitest";
import { withNumbers } from "../../src/store/postgres/deadlines.ts";
import { isConnectionLost } from "../../src/store/postgres/errors.ts";

describe("numbers written into a read", () => {
  it("when a read's values are whole numbers, then each $n becomes its value in parentheses, $10 apart from $1", () => {
    const text = "SELECT $1::int8, $2, $10::int4";
    const values = [-9223372036854775808n, 7, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(withNumbers(text, values)).toBe("SELECT (-9223372036854775808)::int8, (7), (10)::int4");
  });

  it.each([
    ["a string", "1; DROP TABLE plants"],
    ["a fraction", 1.5],
    ["a number past 2^53", 2 ** 60],
    ["nothing", undefined],
  ])("when a value is %s, then nothing is written and it throws", (_, value) => {
    expect(() => withNumbers("SELECT $1", [value as unknown as number])).toThrow(
      /\$1 is not a whole number/,
    );
  });
});

describe("a lost connection", () => {
  it.each([
    [{ code: "CONNECTION_CLOSED" }, true],
    [{ code: "ECONNRESET" }, true],
    [{ code: "57P01", severity: "FATAL" }, true],
    [{ code: "57P02", severity: "PANIC" }, true],
    [{ code: "57014", severity: "ERROR" }, false],
    [{ code: "25006", severity: "ERROR" }, false],
    [new Error("other"), false],
    [undefined, false],
  ])("when a statement fails with %j, then the connection is gone: %s", (error, lost) => {
    expect(isConnectionLost(error)).toBe(lost);
  });
});
