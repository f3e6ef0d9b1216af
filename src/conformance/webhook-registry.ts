// What a document says about its webhooks, as a conformance run needs it: the events it
// declares (the `webhooks` section), the write that sends each, and the collection of endpoints
// a receiver registers in. All read from the document, so an event declared later is checked
// with no code naming it.
//
// - An event with `x-event: {type, table, on}` is sent by that write (`on`: create, update
//   or delete) of the table: the operation with that `x-table` and that `x-action`.
// - An event without it is sent by the collection's create whose request body is the event's
//   payload (the same schema), as `newPlant` is by createPlant.
// - The endpoint registry is the collection whose create takes a `format: uri` member (where
//   messages go) and answers a `secret` (Standard Webhooks' signing key).
import { isJsonMediaType } from "../text/media-type.ts";
import { type Collection, collectionsOf } from "./int64.ts";
import type {
  DocumentedOperation,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
} from "./operations.ts";
import { operationsOf, parameterResolver } from "./operations.ts";

type Json = Record<string, unknown>;

export type Trigger = "create" | "update" | "delete";

export interface DeclaredEvent {
  /** The webhook operation's operationId. */
  operationId: string;
  /** The event's name: x-event's `type`, else the operationId. */
  name: string;
  /** Its payload schema (JSON), as the document writes it. */
  payload: unknown;
  /** Its media type, e.g. application/json. */
  media: string;
  /** The header parameters of the message, $refs resolved. */
  headers: ParameterObject[];
  /** The write that sends it; undefined when the document names none. */
  sentBy: { collection: Collection; on: Trigger; write: DocumentedOperation } | undefined;
}

export interface EndpointRegistry {
  create: DocumentedOperation;
  list: DocumentedOperation | undefined;
  /** DELETE at the item path. */
  remove: DocumentedOperation | undefined;
  /** The create body's member that takes the URL. */
  urlMember: string;
}

const requestBodyOf = (operation: OperationObject) =>
  (operation as { requestBody?: { content?: Record<string, { schema?: unknown }> } }).requestBody
    ?.content ?? {};

/** Every event the document's `webhooks` section declares. */
export function declaredEvents(document: OpenApiDocument): DeclaredEvent[] {
  const operations = operationsOf(document);
  const collections = collectionsOf(operations);
  const resolve = parameterResolver(document);
  const webhooks = ((document as { webhooks?: Record<string, Json> }).webhooks ?? {}) as Record<
    string,
    Json
  >;
  return Object.values(webhooks).flatMap((item) =>
    Object.values(item).flatMap((value) => {
      const operation = value as OperationObject | undefined;
      if (typeof operation?.operationId !== "string") return [];
      const content = requestBodyOf(operation);
      const media = Object.keys(content).find(isJsonMediaType) ?? "application/json";
      const payload = content[media]?.schema;
      const declared = operation["x-event"] as { type?: unknown; table?: unknown; on?: unknown };
      return [
        {
          operationId: operation.operationId,
          name: typeof declared?.type === "string" ? declared.type : operation.operationId,
          payload,
          media,
          headers: (operation.parameters ?? []).map(resolve).filter((p) => p.in === "header"),
          sentBy:
            declared === undefined
              ? sentByCreate(payload, collections)
              : sentByDeclaration(declared, collections, operations),
        },
      ];
    }),
  );
}

function sentByCreate(payload: unknown, collections: readonly Collection[]) {
  const same = JSON.stringify(payload);
  for (const collection of collections) {
    const create = collection.create;
    if (create === undefined) continue;
    const bodies = Object.values(requestBodyOf(create.operation)).map((m) =>
      JSON.stringify(m.schema),
    );
    if (bodies.includes(same)) return { collection, on: "create" as const, write: create };
  }
  return undefined;
}

function sentByDeclaration(
  declared: { table?: unknown; on?: unknown },
  collections: readonly Collection[],
  operations: readonly DocumentedOperation[],
) {
  const write = operations.find(
    (op) =>
      (op.operation as unknown as Json)["x-table"] === declared.table &&
      (op.operation as unknown as Json)["x-action"] === declared.on,
  );
  const collection = collections.find((c) =>
    [c.list.template, c.item.template].includes(write?.template ?? ""),
  );
  if (write === undefined || collection === undefined) return undefined;
  return { collection, on: declared.on as Trigger, write };
}

/** The collection a receiver registers an endpoint in, if the document has one. */
export function endpointRegistry(document: OpenApiDocument): EndpointRegistry | undefined {
  const operations = operationsOf(document);
  const schemas = (document.components?.schemas ?? {}) as Record<string, Json>;
  for (const create of operations.filter((op) => op.method === "POST")) {
    const content = requestBodyOf(create.operation);
    const media = Object.keys(content).find(isJsonMediaType);
    const body = flatSchema(media === undefined ? undefined : content[media]?.schema, schemas);
    const urlMember = Object.entries((body["properties"] ?? {}) as Record<string, Json>).find(
      ([, member]) => flatSchema(member, schemas)["format"] === "uri",
    )?.[0];
    if (urlMember === undefined || !answersSecret(create, schemas)) continue;
    const item = operations.find(
      (op) => op.method === "DELETE" && op.template.startsWith(`${create.template}/{`),
    );
    return {
      create,
      list: operations.find((op) => op.method === "GET" && op.template === create.template),
      remove: item,
      urlMember,
    };
  }
  return undefined;
}

function answersSecret(create: DocumentedOperation, schemas: Record<string, Json>): boolean {
  return Object.entries(create.operation.responses).some(([status, response]) => {
    if (!status.startsWith("2")) return false;
    const content = ((response as Json)["content"] ?? {}) as Record<string, Json>;
    const schema = flatSchema(content["application/json"]?.["schema"], schemas);
    return "secret" in ((schema["properties"] ?? {}) as Json);
  });
}

/** The schema with $refs followed and allOf's members joined (what these lookups read). */
export function flatSchema(raw: unknown, schemas: Record<string, Json>, depth = 0): Json {
  const schema = (raw ?? {}) as Json;
  if (depth > 16) return {};
  const ref = schema["$ref"];
  if (typeof ref === "string") {
    return flatSchema(schemas[ref.split("/").at(-1) ?? ""], schemas, depth + 1);
  }
  const parts = Array.isArray(schema["allOf"]) ? (schema["allOf"] as unknown[]) : [];
  if (parts.length === 0) return schema;
  const flat = parts.map((part) => flatSchema(part, schemas, depth + 1));
  return {
    ...schema,
    properties: Object.assign({}, ...flat.map((part) => part["properties"] ?? {})),
  };
}
