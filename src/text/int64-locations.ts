// Where a schema puts an int64 (`type: integer, format: int64`), whatever the field is called
// and however deep: found once per operation from the document, so that every such value in a
// request body is read exactly (src/http/body.ts) without any code naming it.
import type { JsonStep } from "./int64.ts";

/** Any element of an array. */
export const EVERY_ITEM = Symbol("every item");
/** Any member of an object other than the ones its schema declares (additionalProperties). */
export interface OtherMembers {
  readonly otherThan: readonly string[];
}

export type LocationStep = string | typeof EVERY_ITEM | OtherMembers;
/** A path through the JSON value, with wildcards for arrays and free-form objects. */
export type Int64Location = readonly LocationStep[];

interface Schema {
  type?: unknown;
  format?: unknown;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema | Schema[];
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

/** Every place an int64 may stand in values of `schema` (dereferenced, cycles allowed). */
export function int64Locations(schema: unknown): Int64Location[] {
  const found = new Map<string, Int64Location>();
  const walk = (node: Schema | undefined, at: Int64Location, path: ReadonlySet<Schema>) => {
    if (node === undefined || typeof node !== "object" || path.has(node)) return;
    const inside = new Set(path).add(node);
    // A type list (3.1: [integer, "null"]) holds an int64 as surely as `type: integer` does.
    const integer =
      node.type === "integer" || (Array.isArray(node.type) && node.type.includes("integer"));
    if (integer && node.format === "int64") {
      found.set(JSON.stringify(at.map((step) => (step === EVERY_ITEM ? "[*]" : step))), at);
    }
    for (const part of [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
      walk(part, at, inside);
    }
    for (const [name, property] of Object.entries(node.properties ?? {})) {
      walk(property, [...at, name], inside);
    }
    if (typeof node.additionalProperties === "object") {
      const declared = Object.keys(node.properties ?? {});
      walk(node.additionalProperties, [...at, { otherThan: declared }], inside);
    }
    if (node.items !== undefined && !Array.isArray(node.items)) {
      walk(node.items, [...at, EVERY_ITEM], inside);
    }
  };
  walk(schema as Schema, [], new Set());
  return [...found.values()];
}

/** The concrete paths in `value` that `location` names and that hold a number. */
export function numbersAt(value: unknown, location: Int64Location): JsonStep[][] {
  // The usual location is member names only (a body's id): followed without closures or copies.
  let node = value;
  for (const step of location) {
    if (typeof step !== "string") return numbersAlong(value, location);
    if (typeof node !== "object" || node === null || Array.isArray(node)) return [];
    if (!Object.hasOwn(node, step)) return [];
    node = (node as Record<string, unknown>)[step];
  }
  return typeof node === "number" ? [[...(location as readonly string[])]] : [];
}

/** numbersAt for a location with wildcards: every path that matches. */
function numbersAlong(value: unknown, location: Int64Location): JsonStep[][] {
  const out: JsonStep[][] = [];
  const visit = (node: unknown, depth: number, path: JsonStep[]) => {
    if (depth === location.length) {
      if (typeof node === "number") out.push(path);
      return;
    }
    const step = location[depth];
    if (typeof node !== "object" || node === null) return;
    if (step === EVERY_ITEM) {
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) visit(item, depth + 1, [...path, i]);
      }
    } else if (typeof step === "object") {
      if (!Array.isArray(node)) {
        for (const [name, member] of Object.entries(node)) {
          if (!step.otherThan.includes(name)) visit(member, depth + 1, [...path, name]);
        }
      }
    } else if (step !== undefined && !Array.isArray(node) && Object.hasOwn(node, step)) {
      visit((node as Record<string, unknown>)[step], depth + 1, [...path, step]);
    }
  };
  visit(value, 0, []);
  return out;
}

/** A copy of `value` with the value at `path` replaced; every container on the way is copied. */
export function replacedAt(
  value: unknown,
  path: readonly JsonStep[],
  replacement: unknown,
): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return replacement;
  if (Array.isArray(value) && typeof step === "number") {
    const copy = [...value];
    copy[step] = replacedAt(copy[step], rest, replacement);
    return copy;
  }
  const record = value as Record<string, unknown>;
  return { ...record, [step]: replacedAt(record[String(step)], rest, replacement) };
}
