// JSON for the client with int64s exact, where the document puts them: numbers are parsed
// without rounding (lossless-json), then each one at an int64 location of the answer's schema
// becomes a bigint and every other a number. Requests are written with bigints as digits.
import { isLosslessNumber, type LosslessNumber, parse, stringify } from "lossless-json";

/** A path through JSON: "[*]" for any array item, `{ otherThan }` for any undeclared member. */
export type Location = readonly (string | { readonly otherThan: readonly string[] })[];

/** `value` as JSON text, every bigint written as its exact integer literal. */
export function toJson(value: unknown): string {
  return stringify(value) ?? "null";
}

/** Parses `text`, making the numbers at `int64` locations bigints and all others numbers. */
export function fromJson(text: string, int64: readonly Location[]): unknown {
  return convert(parse(text), int64, []);
}

function convert(node: unknown, int64: readonly Location[], at: readonly string[]): unknown {
  if (isLosslessNumber(node)) {
    const exact = int64.some((location) => matches(location, at));
    // Elsewhere a number, as the types say (lossless-json's valueOf would give a bigint).
    return exact ? toBigInt(node) : Number(node.value);
  }
  if (Array.isArray(node)) return node.map((item) => convert(item, int64, [...at, "[*]"]));
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, convert(value, int64, [...at, key])]),
  );
}

/** Whether the concrete path `at` (array steps as "[*]") is the location `location`. */
export function matches(location: Location, at: readonly string[]): boolean {
  return (
    location.length === at.length &&
    location.every((step, i) => {
      const here = at[i];
      if (typeof step === "string") return step === here;
      return here !== undefined && here !== "[*]" && !step.otherThan.includes(here);
    })
  );
}

function toBigInt(number: LosslessNumber): bigint {
  // The server writes int64s as plain integer literals; anything else is not one.
  if (!/^-?\d+$/.test(number.value)) {
    throw new TypeError(`expected an integer, got ${number.value}`);
  }
  return BigInt(number.value);
}
