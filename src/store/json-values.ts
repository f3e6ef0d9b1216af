// Members kept as JSON (objects and arrays), and the bodies of events: written with every bigint
// as its exact integer literal, and read back without rounding any integer, so that what a
// client sent comes back digit for digit.
import { isInteger, isLosslessNumber, isSafeNumber, parse, stringify } from "lossless-json";

/** `value` as JSON text, bigints as their digits. */
export const jsonText = (value: unknown): string => stringify(value) ?? "null";

/**
 * JSON text as values: the numbers at `int64At` (paths of member names, "[*]" for any item) are
 * bigints, every other number a number; with none given, an integer past a double's exact range
 * is a bigint (an answer read back whole), so that no digit is lost.
 */
export function jsonValue(text: string, int64At?: readonly (readonly string[])[]): unknown {
  if (int64At === undefined) {
    return parse(text, null, (digits) =>
      isInteger(digits) && !isSafeNumber(digits) ? BigInt(digits) : Number(digits),
    );
  }
  return withInt64s(parse(text), int64At, []);
}

/** Numbers still as lossless-json reads them, made bigints at `int64At` and numbers elsewhere. */
function withInt64s(node: unknown, int64At: readonly (readonly string[])[], at: string[]): unknown {
  if (isLosslessNumber(node)) {
    const exact = int64At.some(
      (path) => path.length === at.length && path.every((s, i) => s === at[i]),
    );
    return exact && isInteger(node.value) ? BigInt(node.value) : Number(node.value);
  }
  if (Array.isArray(node)) return node.map((item) => withInt64s(item, int64At, [...at, "[*]"]));
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, withInt64s(value, int64At, [...at, key])]),
  );
}

/** Whether two JSON values are the same data: members in any order, numbers by value. */
export const sameJson = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const members = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${members.join(",")}}`;
  }
  // 1 and 1n, 2.0 and 2 are one number.
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value).toString();
  return jsonText(value);
}
