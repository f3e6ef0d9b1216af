// The dereferenced document as JSON text and back, for the build (compiled-api.ts): an object
// that the document names in several places (a schema given by $ref, and any cycle) is written
// once, under `$shared`, and each place says `{"$ref": "#/$shared/N"}`; dereference-json-schema
// (what openapi-backend's quick mode dereferences with) turns those back into the one object.
// A start then runs no json-schema-ref-parser (tens of milliseconds, and it loads Node's fetch).
// CommonJS whose names Node cannot see from an ES module: its exports are the default export.
import dereferenceJsonSchema from "dereference-json-schema";
import type { Document } from "openapi-backend";

interface Wrapped {
  document: unknown;
  $shared: unknown[];
}

export function dereferencedToJson(document: Document): string {
  const seen = new Set<object>();
  const repeated = new Map<object, number>();
  const count = (value: unknown): void => {
    if (typeof value !== "object" || value === null) return;
    if (seen.has(value)) {
      if (!repeated.has(value)) repeated.set(value, repeated.size);
      return;
    }
    seen.add(value);
    for (const item of Object.values(value)) count(item);
  };
  count(document);
  const shared: unknown[] = [];
  const write = (value: unknown, asItself = false): unknown => {
    if (typeof value !== "object" || value === null) return value;
    const index = repeated.get(value);
    if (index !== undefined && !asItself) return { $ref: `#/$shared/${index}` };
    if (Array.isArray(value)) return value.map((item) => write(item));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, write(item)]));
  };
  for (const [value, index] of repeated) shared[index] = write(value, true);
  return JSON.stringify({ document: write(document), $shared: shared } satisfies Wrapped);
}

export function dereferencedFromJson(text: string): Document {
  const wrapped = dereferenceJsonSchema.dereferenceSync(JSON.parse(text)) as unknown as Wrapped;
  return wrapped.document as Document;
}
