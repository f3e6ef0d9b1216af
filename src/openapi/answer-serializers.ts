// JSON answers written by a serializer compiled once per documented response (fast-json-stringify,
// the serializer Fastify itself compiles from response schemas) instead of the generic walk of
// src/http/exact-json.ts: it knows the property names beforehand and does not list an object's
// keys. Only a schema whose every part serializes to the same bytes as the generic walk for a
// value that matches it is compiled (plain objects, arrays, strings, numbers, integers — bigints
// included — and booleans, combined by allOf); anything else in a schema (nullable, oneOf,
// additional properties, ...) leaves that answer to the generic walk. The differential test
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
    // A status the document lists is answered by its own schema, any other by `default`'s.
    return answers.byStatus.has(status) ? answers.byStatus.get(status) : answers.fallback;
  };
}

function compileOperation(operation: Operation): {
  byStatus: Map<number, SerializeAnswer | undefined>;
  fallback: SerializeAnswer | undefined;
} {
  const byStatus = new Map<number, SerializeAnswer | undefined>();
  let fallback: SerializeAnswer | undefined;
  for (const [code, response] of Object.entries(operation.responses ?? {})) {
    const serializer = compileResponse(response as Schema);
    if (code === "default") fallback = serializer;
    // A range (4XX) is left to the generic walk: a listed status always wins over it.
    else if (/^[1-5][0-9][0-9]$/.test(code)) byStatus.set(Number(code), serializer);
  }
  return { byStatus, fallback };
}

function compileResponse(response: Schema): SerializeAnswer | undefined {
  const content = response["content"] as Record<string, Schema> | undefined;
  const schema = content?.["application/json"]?.["schema"];
  if (schema === undefined) return undefined;
  const plain = plainSchema(schema as Schema, new Set());
  return plain === undefined ? undefined : (fastJson(plain) as SerializeAnswer);
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

function isInert(keyword: string, schema: Schema): boolean {
  if (INERT.has(keyword) || keyword.startsWith("x-")) return true;
  // Declared properties are walked by plainObject; no other may be written.
  if (keyword === "properties" || keyword === "required") return schema["type"] === "object";
  if (keyword === "additionalProperties") return schema["additionalProperties"] === false;
  return keyword === "items" && schema["type"] === "array";
}

function plainObject(schema: Schema, seen: Set<Schema>): Plain | undefined {
  // An object that declares no properties is free-form unless it says it has none.
  if (schema["properties"] === undefined && schema["additionalProperties"] !== false) {
    return undefined;
  }
  const properties: Record<string, Plain> = {};
  const declared = (schema["properties"] ?? {}) as Record<string, Schema>;
  for (const [name, property] of Object.entries(declared)) {
    const plain = plainSchema(property, seen);
    if (plain === undefined) return undefined;
    properties[name] = plain;
  }
  const required = schema["required"] ?? [];
  // A required property must be declared too, or it would be checked for and not written.
  if (!Array.isArray(required) || !required.every((name) => Object.hasOwn(properties, name))) {
    return undefined;
  }
  return { type: "object", properties, required };
}

/**
 * allOf of objects, merged in order (the properties in the order they first appear, as the
 * generic walk writes an object built that way); a property two members declare must be
 * written the same way by both.
 */
function mergedAllOf(schema: Schema, allOf: unknown, seen: Set<Schema>): Plain | undefined {
  // Beside allOf, only words that change nothing written (no properties of its own).
  const others = Object.keys(schema).filter((keyword) => keyword !== "allOf");
  const inert = (keyword: string) => INERT.has(keyword) || keyword.startsWith("x-");
  if (!Array.isArray(allOf) || !others.every(inert)) return undefined;
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
  return { type: "object", properties, required: [...required] };
}
