// Each operation's JSON answers as Fastify's route schema `response`, from the document: Fastify
// compiles a serializer per status (fast-json-stringify), which writes only what the schema
// declares and an int64 bigint as its exact literal. Annotations that are not JSON Schema
// (examples, x- extensions) are left out. An answer without a schema here (text, a status the
// document does not list) is written by the app's exact generic serializer (exact-json.ts).
import type { Operation } from "openapi-backend";

type Schema = Record<string, unknown>;

interface ResponseObject {
  content?: Record<string, { schema?: unknown }>;
}

export function responseSchemas(operation: Operation): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  const responses = (operation.responses ?? {}) as Record<string, ResponseObject>;
  for (const [status, response] of Object.entries(responses)) {
    const media = Object.keys(response.content ?? {});
    const schema = response.content?.["application/json"]?.schema;
    // Only an answer that is JSON and nothing else: Fastify picks a schema by status.
    if (media.length === 1 && schema !== undefined) schemas[status] = plain(schema) as Schema;
  }
  return schemas;
}

/** Keywords whose value is a map of names to schemas, and whose value is a schema or a list. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);
const SUBSCHEMAS = new Set([
  "items",
  "additionalProperties",
  "not",
  "allOf",
  "anyOf",
  "oneOf",
  "prefixItems",
]);

/** The schema without annotations that are not JSON Schema (a copy; the document is shared). */
function plain(schema: unknown, seen = new Map<object, unknown>()): unknown {
  if (typeof schema !== "object" || schema === null) return schema;
  if (Array.isArray(schema)) return schema.map((item) => plain(item, seen));
  const done = seen.get(schema);
  if (done !== undefined) return done;
  const copy: Schema = {};
  seen.set(schema, copy);
  for (const [key, value] of Object.entries(schema)) {
    if (key === "example" || key === "examples" || key.startsWith("x-")) continue;
    if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null) {
      copy[key] = Object.fromEntries(
        Object.entries(value).map(([name, member]) => [name, plain(member, seen)]),
      );
    } else {
      copy[key] = SUBSCHEMAS.has(key) ? plain(value, seen) : value;
    }
  }
  return copy;
}
