// Reads openapi/plants.yaml, the single description of the API, and the facts other parts of
// the server take from it rather than repeat (methods for CORS, headers to expose, scopes).
import { readFileSync } from "node:fs";
import type { Document } from "openapi-backend";
import { parse } from "yaml";

export const documentPath = new URL("../../openapi/plants.yaml", import.meta.url);

export function loadDocument(): Document {
  // Maps, not objects, so that no name of the document becomes a property key before
  // oneByteCopy has made a one-byte copy of it.
  const parsed: unknown = parse(readFileSync(documentPath, "utf8"), { mapAsMap: true });
  return oneByteCopy(parsed) as Document;
}

/**
 * The parsed document as plain objects and arrays, with every string copied through JSON,
 * which gives one-byte strings where the characters allow. The YAML parser gives each name and
 * value as a piece of the file's text, and V8 holds that text two bytes a character (the file
 * has characters beyond Latin-1, such as the dash). A two-byte name used as a property key is
 * internalized as it is, and from then on every string of those characters in the process is
 * that two-byte one, the program's own literals included: it was so for the RateLimit header
 * names every answer carries, which then took V8's slow paths on every request (lowercasing
 * through ICU, copying and writing the header block two bytes a character).
 */
function oneByteCopy(value: unknown): unknown {
  if (typeof value === "string") return JSON.parse(JSON.stringify(value));
  if (Array.isArray(value)) return value.map(oneByteCopy);
  if (!(value instanceof Map)) return value;
  const object: Record<string, unknown> = {};
  for (const [key, item] of value) {
    // defineProperty: a key named __proto__ is a member, as the parser makes it, not a prototype.
    Object.defineProperty(object, oneByteCopy(String(key)) as string, {
      value: oneByteCopy(item),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return object;
}

/** The methods a path item may hold an operation for (OpenAPI 3.0). */
export const HTTP_METHODS = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
] as const;

/** Operation extension naming the scopes a token needs, when it carries scopes at all. */
export const SCOPES_EXTENSION = "x-required-scopes";

interface OperationObject {
  [SCOPES_EXTENSION]?: unknown;
  responses?: Record<string, { headers?: Record<string, unknown> }>;
}

/** Every operation object of the document (response $refs resolved one level, as used here). */
function operationsOf(document: Document): OperationObject[] {
  return Object.values(document.paths ?? {}).flatMap((item) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = (item as Record<string, unknown> | undefined)?.[method];
      return operation === undefined ? [] : [operation as OperationObject];
    }),
  );
}

/** The HTTP methods the document has on any path, upper case and sorted: CORS allows these. */
export function documentMethods(document: Document): string[] {
  const methods = Object.values(document.paths ?? {}).flatMap((item) =>
    HTTP_METHODS.filter((method) => (item as Record<string, unknown> | undefined)?.[method]),
  );
  return [...new Set(methods.map((method) => method.toUpperCase()))].sort();
}

/** Every header name a documented answer carries (a page in a browser may read these). */
export function documentResponseHeaders(document: Document): string[] {
  const components = (document.components?.responses ?? {}) as Record<
    string,
    { headers?: Record<string, unknown> }
  >;
  const names = operationsOf(document).flatMap((operation) =>
    Object.values(operation.responses ?? {}).flatMap((response) => {
      const ref = (response as { $ref?: unknown }).$ref;
      const resolved = typeof ref === "string" ? components[ref.split("/").at(-1) ?? ""] : response;
      return Object.keys(resolved?.headers ?? {});
    }),
  );
  return [...new Set(names)].sort();
}

/** Every scope some operation requires, sorted: the scopes a token may be given. */
export function documentScopes(document: Document): string[] {
  const scopes = operationsOf(document).flatMap((operation) => {
    const listed = operation[SCOPES_EXTENSION];
    return Array.isArray(listed) ? listed.map(String) : [];
  });
  return [...new Set(scopes)].sort();
}
