// Members that name another resource's row, as the document says with `x-references: <resource>`
// on the member's schema (e.g. `parentId: {type: integer, format: int64, x-references: parents}`).
// A request naming a row that is not stored is answered REFERENCE_STATUS with one sentence,
// found here from the operation as the document describes it, so no handler words its own.

/** The answer to a request whose member names no stored row: its body is valid, its meaning not. */
export const REFERENCE_STATUS = 422;

export interface Reference {
  /** Member names from the body's top, "[*]" for any array item. */
  location: readonly string[];
  /** What `x-references` names: the resource (its table) the member's value is a row of. */
  resource: string;
}

interface Schema {
  $ref?: string;
  "x-references"?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema | Schema[];
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

/**
 * Every member of `schema` marked `x-references`, however deep. `root` resolves local `$ref`s
 * when the schema is not dereferenced (a document as parsed); cycles are walked once.
 */
export function referencesIn(schema: unknown, root?: unknown): Reference[] {
  const found: Reference[] = [];
  const resolve = (node: Schema): Schema | undefined =>
    node.$ref?.startsWith("#/") === true
      ? (node.$ref
          .slice(2)
          .split("/")
          .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], root) as
          | Schema
          | undefined)
      : node;
  const walk = (given: Schema | undefined, at: readonly string[], seen: ReadonlySet<Schema>) => {
    const node = given === undefined ? undefined : resolve(given);
    if (node === undefined || typeof node !== "object" || seen.has(node)) return;
    const inside = new Set(seen).add(node);
    const resource = node["x-references"];
    if (typeof resource === "string") found.push({ location: at, resource });
    for (const part of [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
      walk(part, at, inside);
    }
    for (const [name, property] of Object.entries(node.properties ?? {})) {
      walk(property, [...at, name], inside);
    }
    if (node.items !== undefined && !Array.isArray(node.items)) {
      walk(node.items, [...at, "[*]"], inside);
    }
  };
  walk(schema as Schema, [], new Set());
  const unique = new Map(found.map((reference) => [reference.location.join("."), reference]));
  return [...unique.values()];
}

interface OperationShape {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}

/** The references of an operation's request body, over every media type it takes. */
export function requestReferences(operation: unknown, root?: unknown): Reference[] {
  const content = (operation as OperationShape).requestBody?.content ?? {};
  const all = Object.values(content).flatMap((media) => referencesIn(media.schema, root));
  return [...new Map(all.map((reference) => [reference.location.join("."), reference])).values()];
}

/** The sentence of a refused reference; tests match answers against it. */
export function referenceMessage(reference: Reference, value: string | number | bigint): string {
  const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 64)) : String(value);
  return `\`${reference.location.join(".")}\` names no stored ${reference.resource} row (${shown})`;
}

/** Whether `message` is the sentence of a refused reference of `references`. */
export function isReferenceMessage(references: readonly Reference[], message: string): boolean {
  return references.some((reference) =>
    message.startsWith(
      `\`${reference.location.join(".")}\` names no stored ${reference.resource} row (`,
    ),
  );
}
