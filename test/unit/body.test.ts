// The fast path for ids (a safe integer from a short literal) must agree exactly with the
// exact reading of the literal, for every kind of number literal a client may send.
import { describe, expect, it } from "vitest";
import { mayNeedExactReading } from "../../src/http/body.ts";
import { integerFromLiteral } from "../../src/text/int64.ts";
import { interpretBody } from "../helpers/body.ts";

const JSON_HEADERS = { "content-type": "application/json" } as const;

/** NewPlant's shape: one int64, at /id. */
const SHAPE = { int64: [["id"]], described: "a JSON object with id and name", required: true };

function exactIdOf(literal: string, name = "x"): bigint | null | undefined {
  const body = interpretBody(
    JSON_HEADERS,
    Buffer.from(`{"id":${literal},"name":"${name}"}`),
    SHAPE,
  );
  if (!body.ok) throw new Error(body.problem.message);
  const { id } = body.typed as { id: unknown };
  // A literal that is no integer stays a number, and validation (a 0.5 stand-in) refuses it.
  return typeof id === "bigint" ? id : null;
}

/** Literals of every shape: plain, signed, with fractions, exponents, zeros, many digits. */
function literals(): string[] {
  const out = ["0", "-0", "0.0", "1e-400", "1e400", "1.0000000000000000001", "-1e-1"];
  // The shortest that JSON.parse rounds to an integer they are not (17 significant digits).
  out.push("1.0000000000000001", "0.99999999999999999", "-2.0000000000000001");
  let seed = 12345;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < 3000; i++) {
    const digits = Array.from({ length: 1 + next(20) }, () => String(next(10))).join("");
    const whole = digits.replace(/^0+(?=\d)/, "");
    const fraction = [" ", ".0", ".5", ".000", `.${"0".repeat(next(18))}1`][next(5)]?.trim() ?? "";
    const exponent = ["", "", "e0", "e2", "E+3", "e-2", "e-20"][next(7)] ?? "";
    out.push(`${next(3) === 0 ? "-" : ""}${whole}${fraction}${exponent}`);
  }
  return out;
}

describe("interpretBody's id", () => {
  it("when ids of every shape are sent, then the id is exactly what the literal says (or not an integer)", () => {
    const wrong = literals().filter(
      (literal) => exactIdOf(literal) !== integerFromLiteral(literal),
    );
    expect(wrong).toEqual([]);
  });

  it.each([
    ["a name with a long digit run", "plant 12345678901234567"],
    ["a name with a negative exponent", "1e-5 tree-frog"],
  ])("when the body holds %s, then the id is still exact", (_, name) => {
    expect(exactIdOf("42", name)).toBe(42n);
    expect(exactIdOf("9007199254740993", name)).toBe(9007199254740993n);
  });
});

describe("the check for text that may need the exact reading", () => {
  it.each([
    ["15 digits in a row", '{"id":123456789012345}', false],
    ["16 digits in a row", '{"id":1234567890123456}', true],
    ["16 digits and dots in a row", '{"id":1.00000000000001}', true],
    ["digits broken by a quote", '{"id":12345678,"name":"12345678"}', false],
    ["a negative exponent", '{"id":1e-5}', true],
    ["a negative exponent, upper case", '{"id":1E-5}', true],
    ["e- in a name", '{"name":"tree-frog"}', true],
    ["a positive exponent", '{"id":1e+5,"n":2E5}', false],
    ["nothing", "", false],
  ])("when the text has %s, then %s", (_what, text, expected) => {
    expect(mayNeedExactReading(text)).toBe(expected);
  });
});
