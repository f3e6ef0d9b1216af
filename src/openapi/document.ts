// Reads openapi/plants.yaml, the single description of the API, and the facts other parts of
// the server take from it rather than repeat (methods for CORS, headers to expose, scopes).
import { readFileSync } from "node:fs";
import type { Document } from "openapi-backend";
import { parse } from "yaml";

export const documentPath = new URL("../../openapi/plants.yaml", import.meta.url);

export function loadDocument(): Document {
  const parsed: unknown = parse(readFileSync(documentPath, "utf8"));
  // Through JSON, for the requests' sake. The YAML parser gives each value as a piece of the
  // file's text, which V8 holds two bytes a character (the file has characters beyond Latin-1,
  // such as the dash), so every name, type and operation id read from it was a two-byte string,
  // never internalized: comparing, lowercasing (ICU's way) or storing by such a name took V8's
  // slow paths on every request. JSON.parse gives one-byte, internalized strings. Nothing else
  // changes: the document is published as JSON (GET /openapi.json), and a test checks that the
  // round trip gives back what the YAML says.
  return JSON.parse(JSON.stringify(parsed)) as Document;
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
