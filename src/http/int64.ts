// Exact int64 handling for JSON. JSON.parse turns every number into a double, which
// rounds integers past 2^53 (9007199254740993 becomes ...992), so the id is read again
// from its literal in the request text.

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export const isInt64 = (value: bigint): boolean => value >= INT64_MIN && value <= INT64_MAX;

const NUMBER_LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
// More digits than this cannot be an int64, whatever the sign.
const MAX_INT64_DIGITS = 19;

/**
 * The exact value of a JSON number literal if it is an integer (`1.0` and `1e2` are),
 * or null if it has a fractional part. Values far outside int64 come back as a value
 * just as far outside, without building huge BigInts from exponents like 1e999999.
 */
export function integerFromLiteral(literal: string): bigint | null {
  const match = NUMBER_LITERAL.exec(literal);
  if (match === null) return null;
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = match;
  let digits = (whole + fraction).replace(/^0+/, "");
  let scale = Number(exponent) - fraction.length;
  if (digits === "") return 0n;
  const trailingZeros = digits.length - digits.replace(/0+$/, "").length;
  digits = digits.slice(0, digits.length - trailingZeros);
  scale += trailingZeros;
  if (scale < 0) return null;
  const magnitude =
    digits.length + scale > MAX_INT64_DIGITS + 1
      ? 10n ** BigInt(MAX_INT64_DIGITS + 1)
      : BigInt(digits) * 10n ** BigInt(scale);
  return sign === "-" ? -magnitude : magnitude;
}

/**
 * The literal text of the last top-level `id` member of a JSON object text (the one
 * JSON.parse keeps when a key repeats). `text` must already have parsed as an object.
 * Iterative, so deeply nested values cannot exhaust the stack.
 */
export function topLevelIdLiteral(text: string): string | undefined {
  let found: string | undefined;
  let i = skipSpace(text, text.indexOf("{") + 1);
  while (i < text.length && text[i] !== "}") {
    const keyEnd = endOfString(text, i);
    const rawKey = text.slice(i, keyEnd);
    const key = rawKey.includes("\\") ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1);
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const valueEnd = endOfValue(text, valueStart);
    if (key === "id") found = text.slice(valueStart, valueEnd);
    i = skipSpace(text, valueEnd);
    if (text[i] === ",") i = skipSpace(text, i + 1);
  }
  return found;
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
