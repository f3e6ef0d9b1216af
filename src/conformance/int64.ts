// Ids exact beyond 2^53, for every collection the document has: a GET at T listing items and a
// GET at T/{p} whose p is an int64. Ids read exactly (lossless-json) from a list must read back
// with the same digits; with writes allowed, one id past 2^53 is created, read back and deleted.
import { isLosslessNumber, parse, stringify } from "lossless-json";
import type { DocumentedOperation } from "./operations.ts";

export interface Collection {
  list: DocumentedOperation;
  item: DocumentedOperation;
  /** The path parameter naming an item. */
  parameter: string;
  create: DocumentedOperation | undefined;
  remove: DocumentedOperation | undefined;
}

const int64Parameter = (operation: DocumentedOperation): string | undefined => {
  const [parameter, ...more] = operation.parameters.filter((p) => p.in === "path");
  const schema = parameter?.schema as { type?: string; format?: string } | undefined;
  return more.length === 0 && schema?.type === "integer" && schema.format === "int64"
    ? parameter?.name
    : undefined;
};

export function collectionsOf(operations: readonly DocumentedOperation[]): Collection[] {
  return operations.flatMap((item) => {
    const parameter = int64Parameter(item);
    if (item.method !== "GET" || parameter === undefined) return [];
    const template = item.template.slice(0, item.template.lastIndexOf("/"));
    if (`${template}/{${parameter}}` !== item.template) return [];
    const at = (method: string, path: string) =>
      operations.find((op) => op.method === method && op.template === path);
    const list = at("GET", template);
    if (list === undefined) return [];
    return [
      {
        list,
        item,
        parameter,
        create: at("POST", template),
        remove: at("DELETE", item.template),
      },
    ];
  });
}

/** The exact text of every `id` in the items of the first array of a JSON answer. */
export function idsInList(body: string): string[] {
  let value: unknown;
  try {
    value = parse(body);
  } catch {
    return [];
  }
  const array = Array.isArray(value)
    ? value
    : Object.values((value ?? {}) as Record<string, unknown>).find(Array.isArray);
  return ((array ?? []) as unknown[]).flatMap((entry) => {
    const id = (entry as { id?: unknown } | null)?.id;
    return isLosslessNumber(id) ? [id.value] : [];
  });
}

/** The exact text of the answer's top-level `id`, if it is a number. */
export function idOf(body: string): string | undefined {
  try {
    const id = (parse(body) as { id?: unknown } | null)?.id;
    return isLosslessNumber(id) ? id.value : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON body with its `id` set to `id`, written exactly. */
export function withId(body: string, id: bigint): string {
  const value = parse(body) as Record<string, unknown>;
  return stringify({ ...value, id }) ?? body;
}
