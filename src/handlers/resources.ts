// The handlers of every operation that is a plain action on a declared table (`x-table` and
// `x-action` in the YAML: create, get, list, update, delete): one per action, for any table,
// naming no member, so that a member, a filter or a table added to the document needs no
// handler. Each passes the validated body, parameters and filters to the table's repository and
// answers as the document says; its messages name the table's noun and key ("no plant with id
// 99"). An operation with a handler of its own in index.ts keeps it.
import type { Operation } from "openapi-backend";
import type { ApiData, ResourceOperation } from "../openapi/data.ts";
import type { OperationContext } from "../openapi/operation-types.ts";
import { errorResponse } from "../openapi/responses.ts";
import type { ResourceStore } from "../store/rows.ts";
import type { Row, Table } from "../store/tables.ts";
import type { HandlerDeps } from "./deps.ts";
import { nextPageLink } from "./next-link.ts";
import { unknownReference } from "./unknown-reference.ts";

/** Most UTF-8 bytes of a page's text (its strings and JSON; documented in openapi/plants.yaml). */
export const PAGE_TEXT_BYTES = 1024 * 1024;

interface Inputs {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
}

/** A generic handler: what it gets is read and checked against the document already. */
export type ResourceHandler = (input: Inputs, context: OperationContext) => Promise<Answer>;

/** The handlers of the document's plain actions on its tables, by operationId. */
export function resourceHandlers(
  deps: HandlerDeps,
  data: ApiData,
): Record<string, ResourceHandler> {
  const resources = deps.store.resources as unknown as Record<string, ResourceStore>;
  return Object.fromEntries(
    data.operations.map((operation) => {
      const table = data.tables.find((t) => t.name === operation.table);
      const store = resources[operation.table];
      if (table === undefined || store === undefined) {
        throw new Error(`${operation.operationId}: no store for the table ${operation.table}`);
      }
      return [operation.operationId, handlerFor(operation, table, store, deps.publicUrl)];
    }),
  );
}

function handlerFor(
  operation: ResourceOperation,
  table: Table,
  store: ResourceStore,
  publicUrl: string | undefined,
): ResourceHandler {
  const keyOf = (input: Inputs) => input.path[operation.keyParameter ?? table.key];
  // Only the table's members go to the store: a body's other members (the document lets a create
  // ignore unknown ones) are not its to keep, nor to copy to the write thread.
  const members = table.columns.map((column) => column.member);
  const stored = (body: unknown): Row => {
    const given = body as Row;
    const row: Row = {};
    for (const member of members) if (member in given) row[member] = given[member];
    return row;
  };
  const absent = (key: unknown) => errorResponse(404, `no ${table.noun} with ${table.key} ${key}`);
  switch (operation.action) {
    case "create": {
      // The document's success status, read on the first create (the operation is the same).
      let success: number | undefined;
      return async ({ body }, { operation: described }) => {
        const row = stored(body);
        const result = await store.create(row);
        if (result.kind === "unreferenced") throw refused(described, result);
        if (result.kind === "conflict") {
          return errorResponse(
            409,
            `a ${table.noun} with ${table.key} ${row[table.key]} already exists with a different ${otherMembers(table)}`,
          );
        }
        success ??= successOf(described);
        return { status: success, body: result.row };
      };
    }
    case "get":
      return async (input) => {
        const row = await store.get(keyOf(input));
        return row === undefined ? absent(keyOf(input)) : { status: 200, body: row };
      };
    case "update":
      return async (input, { operation: described }) => {
        const result = await store.update(keyOf(input), stored(input.body));
        if (result.kind === "unreferenced") throw refused(described, result);
        return result.kind === "absent" ? absent(keyOf(input)) : { status: 200, body: result.row };
      };
    case "delete":
      return async (input) =>
        (await store.delete(keyOf(input))) ? { status: 204 } : absent(keyOf(input));
    default:
      return list(operation, table, store, publicUrl);
  }
}

/**
 * A page in ascending key order, cut by key (keyset), with a Link to the next page whenever
 * this one is full (by count, or by the bytes of its text), carrying the filters given.
 */
function list(
  operation: ResourceOperation,
  table: Table,
  store: ResourceStore,
  publicUrl: string | undefined,
): ResourceHandler {
  return async ({ path, query }, context) => {
    const limit = query["limit"] as number;
    const filters: Row = {};
    for (const member of operation.filters) {
      if (query[member] !== undefined) filters[member] = query[member];
    }
    const page = { after: query["after"], limit, maxTextBytes: PAGE_TEXT_BYTES, filters };
    const { rows, full } = await store.list(page);
    // A full page may be followed by more; the client stops at the first page without next.
    const headers = full
      ? nextPageLink(
          { template: context.operation.path, path: path as Record<string, string> },
          publicUrl,
          rows.at(-1)?.[table.key] as string | bigint | undefined,
          limit,
          filters,
        )
      : undefined;
    return headers === undefined
      ? { status: 200, body: rows }
      : { status: 200, body: rows, headers };
  };
}

/** "name or tag": the members other than the key, as a conflict names them. */
function otherMembers(table: Table): string {
  const names = table.columns.map((c) => c.member).filter((member) => member !== table.key);
  return names.length < 2
    ? (names[0] ?? "value")
    : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** The status of the operation's success as the document gives it (200, or 201). */
function successOf(operation: Operation): number {
  const status = Object.keys(operation.responses ?? {}).find((code) => /^2\d\d$/.test(code));
  return Number(status ?? 200);
}

const refused = (operation: Operation, result: { member: string; value: unknown }) =>
  unknownReference(operation, [result.member], result.value as string | number | bigint);
