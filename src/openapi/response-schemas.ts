// Each operation's JSON answers as Fastify's route schema `response`, from the document: Fastify
// compiles a serializer per status (fast-json-stringify), which writes only what the schema
// declares and an int64 bigint as its exact literal. Annotations that are not JSON Schema
// (examples, x- extensions) are left out. A schema that lets an object carry properties it
// does not declare (the published document's) is not given to Fastify: fast-json-stringify
// would write the declared ones first, out of the handler's order. An answer with no schema
// here goes through JSON.stringify, which refuses a bigint: a 500, never a rounded id.
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
    if (media.length === 1 && schema !== undefined && !freeForm(schema)) {
      schemas[status] = plain(schema) as Schema;
    }
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

/** Whether the schema, anywhere, allows object properties it does not declare. */
function freeForm(schema: unknown, seen = new Set<object>()): boolean {
  if (typeof schema !== "object" || schema === null || seen.has(schema)) return false;
  seen.add(schema);
  if (Array.isArray(schema)) return schema.some((item) => freeForm(item, seen));
  const node = schema as Schema;
  const additional = node["additionalProperties"];
  if (additional !== undefined && additional !== false) return true;
  if (node["type"] === "object" && node["properties"] === undefined) return true;
  return Object.entries(node).some(
    ([key, value]) =>
      (SUBSCHEMAS.has(key) || SCHEMA_MAPS.has(key)) &&
      (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null
        ? Object.values(value).some((member) => freeForm(member, seen))
        : freeForm(value, seen)),
  );
}
