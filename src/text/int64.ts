// Exact int64 handling. JSON.parse turns every number into a double, which rounds integers
// past 2^53 (9007199254740993 becomes ...992), so an int64 is read again from its literal in
// the request text; a parameter is read from its text as a canonical decimal.

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export const isInt64 = (value: bigint): boolean => value >= INT64_MIN && value <= INT64_MAX;

// More digits than this cannot be an int64, whatever the sign.
const MAX_INT64_DIGITS = 19;

/**
 * The exact value of a JSON number literal if it is an integer (`1.0` and `1e2` are),
 * or null if it has a fractional part or is not a number literal. Values far outside int64
 * come back as a value just as far outside, without building huge BigInts from exponents
 * like 1e999999. One pass over the text: no pattern that could backtrack on a long literal.
 */
export function integerFromLiteral(literal: string): bigint | null {
  const parts = numberParts(literal);
  if (parts === undefined) return null;
  const { negative, digits: all, pointAt, exponent } = parts;
  // Significant digits only: no leading zeros, and trailing zeros moved into the scale.
  let first = 0;
  while (first < all.length && all[first] === "0") first++;
  let last = all.length;
  while (last > first && all[last - 1] === "0") last--;
  if (first === last) return 0n;
  const scale = exponent + pointAt - last;
  if (scale < 0) return null;
  const digits = all.slice(first, last);
  const magnitude =
    digits.length + scale > MAX_INT64_DIGITS + 1
      ? 10n ** BigInt(MAX_INT64_DIGITS + 1)
      : BigInt(digits) * 10n ** BigInt(scale);
  return negative ? -magnitude : magnitude;
}

interface NumberParts {
  negative: boolean;
  /** Every digit before and after the point, in order. */
  digits: string;
  /** How many of `digits` come before the point. */
  pointAt: number;
  exponent: number;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";

/** `-?digits(.digits)?([eE][+-]?digits)?`, read in one pass, or undefined. */
function numberParts(text: string): NumberParts | undefined {
  let i = 0;
  const negative = text[i] === "-";
  if (negative) i++;
  const digitsFrom = (from: number): number => {
    let j = from;
    while (isDigit(text[j])) j++;
    return j;
  };
  const wholeEnd = digitsFrom(i);
  if (wholeEnd === i) return undefined;
  let digits = text.slice(i, wholeEnd);
  const pointAt = digits.length;
  i = wholeEnd;
  if (text[i] === ".") {
    const fractionEnd = digitsFrom(i + 1);
    if (fractionEnd === i + 1) return undefined;
    digits += text.slice(i + 1, fractionEnd);
    i = fractionEnd;
  }
  let exponent = 0;
  if (text[i] === "e" || text[i] === "E") {
    const sign = text[i + 1] === "-" ? -1 : 1;
    const from = text[i + 1] === "-" || text[i + 1] === "+" ? i + 2 : i + 1;
    const end = digitsFrom(from);
    if (end === from) return undefined;
    exponent = sign * Number(text.slice(from, end));
    i = end;
  }
  return i === text.length ? { negative, digits, pointAt, exponent } : undefined;
}

/** One step into a JSON value: a member name, or an array index. */
export type JsonStep = string | number;

/**
 * The literal text of the value at `path` in a JSON text (for a repeated member name, the last
 * one, which JSON.parse keeps), or undefined if there is none. `text` must already have parsed.
 * Iterative, so deeply nested values cannot exhaust the stack; linear in the text's length.
 */
export function literalAt(text: string, path: readonly JsonStep[]): string | undefined {
  let at = skipSpace(text, 0);
  for (const step of path) {
    const next =
      typeof step === "number" ? elementStart(text, at, step) : memberStart(text, at, step);
    if (next === undefined) return undefined;
    at = next;
  }
  return text.slice(at, endOfValue(text, at));
}

/** Where the value of the last member named `name` starts, in the object at `from`. */
function memberStart(text: string, from: number, name: string): number | undefined {
  if (text[from] !== "{") return undefined;
  let found: number | undefined;
  let i = skipSpace(text, from + 1);
  while (i < text.length && text[i] !== "}") {
    const keyEnd = endOfString(text, i);
    const rawKey = text.slice(i, keyEnd);
    // Escapes are rare in names; only then is the name decoded to compare it.
    const key = rawKey.includes("\\") ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1);
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1);
    if (key === name) found = valueStart;
    i = skipSpace(text, endOfValue(text, valueStart));
    if (text[i] === ",") i = skipSpace(text, i + 1);
  }
  return found;
}

/** Where element `index` starts, in the array at `from`. */
function elementStart(text: string, from: number, index: number): number | undefined {
  if (text[from] !== "[") return undefined;
  let i = skipSpace(text, from + 1);
  for (let n = 0; i < text.length && text[i] !== "]"; n++) {
    if (n === index) return i;
    i = skipSpace(text, endOfValue(text, i));
    if (text[i] === ",") i = skipSpace(text, i + 1);
  }
  return undefined;
}

/**
 * A parameter's text as an integer: canonical decimal only (`0`, or an optional `-` and digits
 * without a leading zero), so that `1e2`, `0x10`, `+1`, `01`, `-0`, `1.0` and ` 1` are refused
 * rather than read as some number. Undefined when the text is not that.
 */
export function canonicalInteger(text: string): bigint | undefined {
  const negative = text.startsWith("-");
  const digits = negative ? text.slice(1) : text;
  if (digits === "" || digits.length > 400 || (digits[0] === "0" && text !== "0")) return undefined;
  for (const c of digits) if (!isDigit(c)) return undefined;
  return BigInt(text);
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (
    i < text.length &&
    (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")
  )
    i++;
  return i;
}

/** Index just past the string that opens at `from`. */
function endOfString(text: string, from: number): number {
  let i = from + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (c === '"') return i + 1;
    else i++;
  }
  return i;
}

/** Index just past the value that starts at `from`. */
function endOfValue(text: string, from: number): number {
  const first = text[from];
  if (first === '"') return endOfString(text, from);
  if (first === "{" || first === "[") {
    let depth = 0;
    let i = from;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i = endOfString(text, i);
        continue;
      }
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  let i = from;
  while (i < text.length && /[-+.\deEtrufalsn]/.test(text[i] ?? "")) i++;
  return i;
}

/**
 * A double that falls on the same side of the int64 format check (src/openapi/backend.ts) as the
 * exact value, so that the validator decides on the exact value: 9223372036854775807 would round
 * to 2^63 (outside) and -9223372036854775809 to -2^63 (inside). A fraction JSON.parse rounded
 * away (1.0000000000000000001), given as null, becomes 0.5, which is no integer.
 */
export function validationStandIn(exact: bigint | null): number {
  if (exact === null) return 0.5;
  if (exact > INT64_MAX) return 2 ** 64;
  if (exact < INT64_MIN) return -(2 ** 64);
  return Math.min(Number(exact), LARGEST_DOUBLE_BELOW_2_63);
}

const LARGEST_DOUBLE_BELOW_2_63 = 2 ** 63 - 1024;
