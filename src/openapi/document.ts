// Reads openapi/plants.yaml, the single description of the API, and the facts other parts of
// the server take from it rather than repeat (methods for CORS, headers to expose, scopes).
import { readFileSync } from "node:fs";
import type { Document } from "openapi-backend";
import { parse } from "yaml";

export const documentPath = new URL("../../openapi/plants.yaml", import.meta.url);

export function loadDocument(): Document {
  return parseYaml(readFileSync(documentPath, "utf8")) as Document;
}

/**
 * The bounds every command reads a document within (the server's build, generate, bundle,
 * spec:diff, spec:release and conformance alike): YAML aliases (a "billion laughs" file expands
 * each one), nesting (what reads the document walks it recursively), and `$ref`s, which may only
 * point inside the document, so that no command reads a file or fetches a URL it names.
 */
export const DOCUMENT_LIMITS = { aliases: 100, depth: 64 } as const;

/** The document is outside DOCUMENT_LIMITS, or is not YAML/JSON at all. */
export class DocumentRefused extends Error {}

/** What the YAML parser makes of `text` (YAML or JSON), within DOCUMENT_LIMITS, with every
 * string one-byte where it can be. */
export function parseYaml(text: string): unknown {
  let parsed: unknown;
  try {
    // Maps, not objects, so that no name becomes a property key before oneByteCopy has made a
    // one-byte copy of it.
    parsed = parse(text, { mapAsMap: true, maxAliasCount: DOCUMENT_LIMITS.aliases });
  } catch (error) {
    throw new DocumentRefused(`the document cannot be read: ${(error as Error).message}`);
  }
  const refs: string[] = [];
  const document = oneByteCopy(parsed, new Map(), 0, refs);
  for (const ref of refs) resolves(document, ref);
  return document;
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
 * The walk also holds the document to DOCUMENT_LIMITS' depth and local `$ref`s.
 */
function oneByteCopy(
  value: unknown,
  copies: Map<object, unknown>,
  depth: number,
  refs: string[],
): unknown {
  if (typeof value === "string") return JSON.parse(JSON.stringify(value));
  if (typeof value !== "object" || value === null) return value;
  // An alias is the same Map or array as its anchor, so it stays one object, as the parser
  // makes it (and an anchor inside itself does not recurse for ever).
  const copied = copies.get(value);
  if (copied !== undefined) return copied;
  if (depth >= DOCUMENT_LIMITS.depth) {
    throw new DocumentRefused(`the document nests deeper than ${DOCUMENT_LIMITS.depth} levels`);
  }
  if (Array.isArray(value)) {
    const array: unknown[] = [];
    copies.set(value, array);
    for (const item of value) array.push(oneByteCopy(item, copies, depth + 1, refs));
    return array;
  }
  if (!(value instanceof Map)) return value;
  const object: Record<string, unknown> = {};
  copies.set(value, object);
  for (const [key, item] of value) {
    const name = oneByteCopy(keyText(key), copies, depth, refs) as string;
    if (name === "$ref" && typeof item === "string") refs.push(localReference(item));
    // defineProperty: a key named __proto__ is a member, as the parser makes it, not a prototype.
    Object.defineProperty(object, name, {
      value: oneByteCopy(item, copies, depth + 1, refs),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return object;
}

/** Refuses a `$ref` to anything but a place in the document itself (`#/…`, `#name`). */
function localReference(ref: string): string {
  if (ref.startsWith("#")) return ref;
  throw new DocumentRefused(
    `the document has a $ref to ${JSON.stringify(ref.slice(0, 200))}: only references inside it (#/…) are read, never a file or a URL`,
  );
}

/**
 * Refuses a `#/…` `$ref` that names nothing in the document, which every reader would otherwise
 * meet as a crash or a silently empty schema. An anchor (`#name`) is left to its reader.
 */
function resolves(document: unknown, ref: string): void {
  if (ref !== "#" && !ref.startsWith("#/")) return;
  let node = document;
  for (const token of ref.split("/").slice(1)) {
    const name = pointerToken(token);
    if (name === undefined || !holds(node, name)) {
      throw new DocumentRefused(
        `the document has a $ref to ${JSON.stringify(ref.slice(0, 200))}, which names nothing in it`,
      );
    }
    node = (node as Record<string, unknown>)[name];
  }
}

/** `node` has a member `name`: an object's own key, or an array's index. */
function holds(node: unknown, name: string): boolean {
  if (Array.isArray(node)) return /^(?:0|[1-9][0-9]*)$/.test(name) && Number(name) < node.length;
  return typeof node === "object" && node !== null && Object.hasOwn(node, name);
}

/** A JSON pointer token of a URI fragment, decoded (RFC 6901), or undefined if it is malformed. */
function pointerToken(token: string): string | undefined {
  try {
    return decodeURIComponent(token).replaceAll("~1", "/").replaceAll("~0", "~");
  } catch {
    return undefined;
  }
}

/** A scalar key as the parser names a plain object's member; a collection as key is refused. */
function keyText(key: unknown): string {
  if (key === null) return "";
  if (typeof key === "object") throw new DocumentRefused("the YAML has a key that is a collection");
  return String(key);
}

/** The methods a path item may hold an operation for (OpenAPI 3.1). */
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

/**
 * The HTTP methods served on some path, upper case and sorted: the document's, and HEAD with
 * GET. CORS allows these.
 */
export function documentMethods(document: Document): string[] {
  const methods = Object.values(document.paths ?? {}).flatMap((item) =>
    HTTP_METHODS.filter((method) => (item as Record<string, unknown> | undefined)?.[method]),
  );
  if (methods.includes("get")) methods.push("head");
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
