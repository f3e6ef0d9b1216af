// JSON answers written by a serializer compiled once per documented response (fast-json-stringify,
// the serializer Fastify itself compiles from response schemas) instead of the generic walk of
// src/http/exact-json.ts: it knows the property names beforehand and does not list an object's
// keys. A schema is compiled only where fast-json-stringify writes a value built in the schema's
// order with the schema's properties to the same bytes as the generic walk: plain types
// (strings, numbers, integers — bigints included — and booleans), arrays, and objects whose
// required properties come first (fast-json-stringify writes those first), combined by allOf.
// Anything else in a schema (nullable, oneOf, additional properties, ...), or a schema it cannot
// compile, leaves that answer to the generic walk. The differential test
// (test/spec/differential.test.ts) holds the compiled answers to the generic walk's bytes.
//
// What a compiled answer writes is what the schema declares: a property it does not declare is
// left out, as Fastify's own serializers do, and a required one that is missing is an error of
// ours (a 500), never a body that breaks the contract.
import fastJson from "fast-json-stringify";
import type { OpenAPIBackend, Operation } from "openapi-backend";

export type SerializeAnswer = (body: unknown) => string;

/** A compiled serializer for `operation`'s answer with `status`, if its schema allows one. */
export type AnswerSerializers = (
  operation: Operation,
  status: number,
) => SerializeAnswer | undefined;

/** Serializer schema: only what decides the bytes written. */
type Plain =
  | { type: "string" | "integer" | "number" | "boolean" }
  | { type: "array"; items: Plain }
  | { type: "object"; properties: Record<string, Plain>; required: string[] };

type Schema = Record<string, unknown>;

// Keywords that only constrain or describe a value: they change nothing in how it is written.
const INERT = new Set([
  "type",
  "description",
  "title",
  "example",
  "examples",
  "format",
  "deprecated",
  "readOnly",
  "writeOnly",
  "externalDocs",
  "enum",
  "const",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
]);
const SCALARS = new Set(["string", "integer", "number", "boolean"]);

export function answerSerializers(api: OpenAPIBackend): AnswerSerializers {
  // By operationId (every operation has one: its handler's name), not by the object, which
  // openapi-backend's router may derive anew.
  const byOperation = new Map<string | undefined, ReturnType<typeof compileOperation>>();
  for (const operation of api.router.getOperations()) {
    byOperation.set(operation.operationId, compileOperation(operation));
  }
  return (operation, status) => {
    const answers = byOperation.get(operation.operationId);
    if (answers === undefined) return undefined;
    // A status the document lists is answered by its own schema; one in a listed range (4XX)
    // by the generic walk (ranges are not compiled); any other by `default`'s.
    const listed = answers.byStatus.get(status);
    if (listed !== undefined || answers.byStatus.has(status)) return listed;
    return answers.ranges.has(Math.floor(status / 100)) ? undefined : answers.fallback;
  };
}

function compileOperation(operation: Operation): {
  byStatus: Map<number, SerializeAnswer | undefined>;
  ranges: Set<number>;
  fallback: SerializeAnswer | undefined;
} {
  const byStatus = new Map<number, SerializeAnswer | undefined>();
  const ranges = new Set<number>();
  let fallback: SerializeAnswer | undefined;
  for (const [code, response] of Object.entries(operation.responses ?? {})) {
    if (code === "default") fallback = compileResponse(response as Schema);
    else if (/^[1-5]XX$/i.test(code)) ranges.add(Number(code[0]));
    else if (/^[1-5][0-9][0-9]$/.test(code)) {
      byStatus.set(Number(code), compileResponse(response as Schema));
    }
  }
  return { byStatus, ranges, fallback };
}

function compileResponse(response: Schema): SerializeAnswer | undefined {
  const content = response["content"] as Record<string, Schema> | undefined;
  const schema = content?.["application/json"]?.["schema"];
  if (schema === undefined) return undefined;
  const plain = plainSchema(schema as Schema, new Set());
  if (plain === undefined) return undefined;
  try {
    return fastJson(plain) as SerializeAnswer;
  } catch {
    // A schema fast-json-stringify refuses (nested too deep, say) is written the generic way.
    return undefined;
  }
}

/**
 * The schema reduced to what decides the bytes written, or undefined when some part of it could
 * be written otherwise than the generic walk writes it. `seen` stops at a recursive schema.
 */
export function plainSchema(schema: Schema, seen: Set<Schema>): Plain | undefined {
  if (seen.has(schema)) return undefined;
  seen.add(schema);
  try {
    const allOf = schema["allOf"];
    if (allOf !== undefined) return mergedAllOf(schema, allOf, seen);
    if (!Object.keys(schema).every((keyword) => isInert(keyword, schema))) return undefined;
    const type = schema["type"];
    if (typeof type === "string" && SCALARS.has(type)) {
      return { type } as Plain;
    }
    if (type === "array") {
      const items = schema["items"];
      if (typeof items !== "object" || items === null) return undefined;
      const plain = plainSchema(items as Schema, seen);
      return plain === undefined ? undefined : { type: "array", items: plain };
    }
    if (type === "object") return plainObject(schema, seen);
    return undefined;
  } finally {
    seen.delete(schema);
  }
}

// Extensions change nothing either, but for one that some tools read as `nullable`.
const isAnnotation = (keyword: string): boolean =>
  INERT.has(keyword) || (keyword.startsWith("x-") && keyword !== "x-nullable");

function isInert(keyword: string, schema: Schema): boolean {
  if (isAnnotation(keyword)) return true;
  // Declared properties are walked by plainObject; no other may be written.
  if (keyword === "properties" || keyword === "required") return schema["type"] === "object";
  if (keyword === "additionalProperties") return schema["additionalProperties"] === false;
  return keyword === "items" && schema["type"] === "array";
}

function plainObject(schema: Schema, seen: Set<Schema>): Plain | undefined {
  const declared = (schema["properties"] ?? {}) as Record<string, Schema>;
  // An object that declares no properties is free-form unless it says it has none.
  if (Object.keys(declared).length === 0 && schema["additionalProperties"] !== false) {
    return undefined;
  }
  const properties: Record<string, Plain> = {};
  for (const [name, property] of Object.entries(declared)) {
    // Not a property to set on a plain object (it would set its prototype).
    if (name === "__proto__") return undefined;
    const plain = plainSchema(property, seen);
    if (plain === undefined) return undefined;
    properties[name] = plain;
  }
  const required: unknown = schema["required"] ?? [];
  if (!Array.isArray(required) || !required.every((name) => typeof name === "string")) {
    return undefined;
  }
  return writtenInOrder({ type: "object", properties, required });
}

/**
 * The object schema, if fast-json-stringify writes its properties in their declared order: it
 * writes the required ones first, so they must come first. A required property must be
 * declared too, or it would be checked for and not written.
 */
function writtenInOrder(object: Plain & { type: "object" }): Plain | undefined {
  const required = new Set(object.required);
  if (![...required].every((name) => Object.hasOwn(object.properties, name))) return undefined;
  const first = Object.keys(object.properties).slice(0, required.size);
  return first.every((name) => required.has(name)) ? object : undefined;
}

/**
 * allOf of objects, merged in order (the properties in the order they first appear); a property
 * two members declare must be written the same way by both.
 */
function mergedAllOf(schema: Schema, allOf: unknown, seen: Set<Schema>): Plain | undefined {
  // Beside allOf, only words that change nothing written (no properties of its own).
  const others = Object.keys(schema).filter((keyword) => keyword !== "allOf");
  if (!Array.isArray(allOf) || !others.every(isAnnotation)) return undefined;
  if (schema["type"] !== undefined && schema["type"] !== "object") return undefined;
  const properties: Record<string, Plain> = {};
  const required = new Set<string>();
  for (const member of allOf) {
    const plain = plainSchema(member as Schema, seen);
    if (plain?.type !== "object") return undefined;
    for (const [name, property] of Object.entries(plain.properties)) {
      const earlier = properties[name];
      if (earlier !== undefined && JSON.stringify(earlier) !== JSON.stringify(property)) {
        return undefined;
      }
      properties[name] = property;
    }
    for (const name of plain.required) required.add(name);
  }
  return writtenInOrder({ type: "object", properties, required: [...required] });
}
