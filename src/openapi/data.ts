// The data the document declares, read from it (dereferenced) once, at the build: each schema
// with `x-table` is a resource's table, its members the columns; each operation with `x-table`
// and `x-action` is a plain create, get, list, update or delete of it; each webhook with
// `x-event` is sent by a write. A declaration that would lose data is refused with one sentence:
// above all, a member an operation accepts that its table does not store.

import {
  type Column,
  type ColumnKind,
  type DataDeclaration,
  EVENT_HEADER,
  type EventDeclaration,
  keyColumn,
  type Table,
  type WriteAction,
} from "../store/tables.ts";
import { EVERY_ITEM, int64Locations } from "../text/int64-locations.ts";

export type ResourceAction = "create" | "get" | "list" | "update" | "delete";

/** An operation that is a plain action on a declared table, served by the generic handlers. */
export interface ResourceOperation {
  operationId: string;
  table: string;
  action: ResourceAction;
  /** The path parameter that names the row (get, update, delete). */
  keyParameter?: string | undefined;
  /** A list's query parameters that filter it, each a member's name (and the parameter's). */
  filters: string[];
}

export interface ApiData extends DataDeclaration {
  operations: ResourceOperation[];
}

/** The declaration is refused: the sentence says what to change. */
export class DataDeclarationError extends Error {
  override name = "DataDeclarationError";
}

type Schema = Record<string, unknown>;

const ACTIONS: readonly ResourceAction[] = ["create", "get", "list", "update", "delete"];
const WRITES: readonly WriteAction[] = ["create", "update", "delete"];
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** Tables the service keeps for itself. */
const RESERVED = /^(api_tokens|webhook_.*|plantstore_.*|sqlite_.*)$/;
const IDENTIFIER = /^[a-z][a-z0-9_]{0,62}$/;
/** Query parameters of every list: the page, not a filter. */
const PAGING = new Set(["limit", "after"]);

const fail = (sentence: string): never => {
  throw new DataDeclarationError(sentence);
};
const isObject = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What `document` (dereferenced) declares of the data; throws DataDeclarationError. */
export function apiData(document: unknown): ApiData {
  const root = isObject(document) ? document : {};
  const schemas = isObject(root["components"]) ? root["components"]["schemas"] : undefined;
  const tables = Object.entries(isObject(schemas) ? schemas : {})
    .filter(([, schema]) => isObject(schema) && schema["x-table"] !== undefined)
    .map(([name, schema]) => tableOf(name, schema as Schema));
  checkTables(tables);
  const byName = new Map(tables.map((table) => [table.name, table]));
  const events = eventsOf(root["webhooks"], byName);
  const operations = operationsOf(root["paths"], byName);
  checkEventNames(root, events);
  for (const event of events) {
    if (!operations.some((op) => op.table === event.table && op.action === event.on)) {
      fail(
        `the event ${event.type} is sent by a ${event.on} of ${event.table}, which no operation makes: declare one (x-table: ${event.table}, x-action: ${event.on}), or remove the event`,
      );
    }
  }
  return { tables, events, operations };
}

/** A schema's members in order, with allOf merged: the only composition a table may use. */
export function membersOf(schema: Schema): { members: [string, Schema][]; required: Set<string> } {
  const members = new Map<string, Schema>();
  const required = new Set<string>();
  const visit = (node: Schema) => {
    for (const part of Array.isArray(node["allOf"]) ? node["allOf"] : []) {
      if (isObject(part)) visit(part);
    }
    const properties = isObject(node["properties"]) ? node["properties"] : {};
    for (const [name, member] of Object.entries(properties)) {
      if (!members.has(name) && isObject(member)) members.set(name, member);
    }
    for (const name of Array.isArray(node["required"]) ? node["required"] : []) {
      if (typeof name === "string") required.add(name);
    }
  };
  visit(schema);
  return { members: [...members], required };
}

function tableOf(schemaName: string, schema: Schema): Table {
  const declared = schema["x-table"];
  if (!isObject(declared)) {
    return fail(`${schemaName}: x-table must be an object with name and key`);
  }
  const name = String(declared["name"] ?? "");
  const key = String(declared["key"] ?? "");
  if (!IDENTIFIER.test(name) || RESERVED.test(name)) {
    fail(
      `${schemaName}: x-table's name ${JSON.stringify(name)} must be lower case letters, digits and _, and not a table of the service's own`,
    );
  }
  const { members, required } = membersOf(schema);
  const columns = members.map(([member, memberSchema]) =>
    columnOf(`${schemaName}.${member}`, member, memberSchema, required.has(member)),
  );
  const keyed = columns.find((column) => column.member === key);
  if (keyed === undefined || keyed.nullable || !["int64", "int32", "string"].includes(keyed.kind)) {
    fail(
      `${schemaName}: x-table's key ${JSON.stringify(key)} must be a required, non-nullable integer or string member of the schema`,
    );
  }
  const noun = typeof declared["noun"] === "string" ? declared["noun"] : name.replace(/s$/, "");
  return { name, noun, key, columns };
}

function columnOf(where: string, member: string, schema: Schema, required: boolean): Column {
  const types = Array.isArray(schema["type"])
    ? (schema["type"] as unknown[])
    : schema["type"] === undefined
      ? []
      : [schema["type"]];
  const nullable = types.includes("null");
  if (nullable && !required) {
    fail(
      `${where} is optional and nullable, so a stored row could not tell null from absent: make it required (and nullable), or not nullable`,
    );
  }
  const name = member.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  if (!IDENTIFIER.test(name)) {
    fail(`${where}: a stored member's name must be letters and digits, starting with a letter`);
  }
  const column: Column = {
    member,
    name,
    kind: kindOf(where, types.filter((type) => type !== "null") as string[], schema),
    nullable: nullable || !required,
    nullIsValue: nullable,
  };
  if (typeof schema["maxLength"] === "number") column.maxLength = schema["maxLength"];
  if (schema["x-indexed"] === true) column.indexed = true;
  if (column.kind === "json") {
    const at = int64Locations(schema).map((location) =>
      location.flatMap((step) =>
        typeof step === "string" ? [step] : step === EVERY_ITEM ? ["[*]"] : [],
      ),
    );
    if (at.length > 0) column.int64At = at;
  }
  if (typeof schema["x-references"] === "string") column.references = schema["x-references"];
  const fallback = schema["default"];
  if (["string", "number", "boolean"].includes(typeof fallback)) {
    column.default = fallback as string | number | boolean;
  }
  return column;
}

function kindOf(where: string, types: readonly string[], schema: Schema): ColumnKind {
  const [type, other] = types;
  if (other !== undefined)
    return fail(`${where} has more than one type besides null: store it as one`);
  switch (type ?? (schema["properties"] !== undefined ? "object" : undefined)) {
    case "integer":
      if (schema["format"] === "int64") return "int64";
      if (schema["format"] === "int32") return "int32";
      return fail(`${where} is an integer without a format: give it format int64 or int32`);
    case "number":
      return "number";
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    case "object":
    case "array":
      return "json";
    default:
      return fail(`${where} has no type the store keeps: give it one`);
  }
}

function checkTables(tables: readonly Table[]): void {
  const names = new Set<string>();
  for (const table of tables) {
    if (names.has(table.name)) fail(`two schemas declare the table ${table.name}`);
    names.add(table.name);
  }
  for (const table of tables) {
    for (const column of table.columns) {
      if (column.references === undefined) continue;
      const parent = tables.find((t) => t.name === column.references);
      const parentKey = parent?.columns.find((c) => c.member === parent.key);
      if (parentKey === undefined || parentKey.kind !== column.kind) {
        fail(
          `${table.name}.${column.member}: x-references names ${column.references}, which must be a declared table whose key has the member's type`,
        );
      }
    }
  }
}

function eventsOf(webhooks: unknown, tables: ReadonlyMap<string, Table>): EventDeclaration[] {
  const events: EventDeclaration[] = [];
  for (const [name, item] of Object.entries(isObject(webhooks) ? webhooks : {})) {
    for (const method of METHODS) {
      const operation = isObject(item) ? item[method] : undefined;
      if (!isObject(operation)) continue;
      const declared = operation["x-event"];
      const where = `webhook ${name}`;
      if (declared === undefined) {
        fail(`${where}: no write sends it: say which one with x-event {type, table, on}`);
      }
      if (!isObject(declared)) return fail(`${where}: x-event must be an object`);
      const table = tableFor(where, declared["table"], tables);
      // The outbox and the delivery log name an event's row by an int64 (plantId).
      if (table.columns.find((c) => c.member === table.key)?.kind !== "int64") {
        fail(
          `${where}: x-event's table ${table.name} must have an int64 key, which the delivery log names each message's row by`,
        );
      }
      const on = declared["on"] as WriteAction;
      if (!WRITES.includes(on)) fail(`${where}: x-event's on must be one of ${WRITES.join(", ")}`);
      const type = String(declared["type"] ?? "");
      if (!/^[A-Za-z][A-Za-z0-9._-]{0,63}$/.test(type) || events.some((e) => e.type === type)) {
        fail(`${where}: x-event's type must be a name of its own (letters, digits, . _ -)`);
      }
      namesItself(where, operation, type);
      const body = jsonBodyOf(operation);
      const declaredBody = body === undefined ? undefined : membersOf(body);
      const members = declaredBody?.members.map(([m]) => m) ?? [];
      storedOnly(`${where}'s body`, members, table);
      for (const member of declaredBody?.required ?? []) {
        if (table.columns.find((c) => c.member === member)?.nullable === true) {
          fail(
            `${where}'s body requires ${member}, which a ${table.noun} may lack: make it optional there, or required in the table`,
          );
        }
      }
      events.push({
        type,
        table: table.name,
        on,
        members: table.columns.map((c) => c.member).filter((m) => members.includes(m)),
      });
    }
  }
  return events;
}

/** The webhook documents the header its messages name their event in, as that event's alone. */
function namesItself(where: string, operation: Record<string, unknown>, type: string): void {
  const parameters = Array.isArray(operation["parameters"]) ? operation["parameters"] : [];
  const named = parameters.find(
    (p) => isObject(p) && p["in"] === "header" && String(p["name"]).toLowerCase() === EVENT_HEADER,
  ) as Record<string, unknown> | undefined;
  const schema = named?.["schema"];
  if (named?.["required"] !== true || !isObject(schema) || schema["const"] !== type) {
    fail(
      `${where}: each message names its event in the ${EVENT_HEADER} header: document it (in: header, required: true, schema: {type: string, const: ${type}})`,
    );
  }
}

/**
 * A schema marked `x-events` lists the events endpoints may name (its enum): it must be exactly
 * the events the webhooks declare, so that a request naming one is valid by the schema alone.
 */
function checkEventNames(root: Schema, events: readonly EventDeclaration[]): void {
  const declared = events.map((event) => event.type).sort();
  const visit = (node: unknown, seen: Set<unknown>): void => {
    if (!isObject(node) && !Array.isArray(node)) return;
    if (seen.has(node)) return;
    seen.add(node);
    if (isObject(node) && node["x-events"] === true) {
      const listed = (Array.isArray(node["enum"]) ? node["enum"] : []).map(String).sort();
      if (listed.join(",") !== declared.join(",")) {
        fail(
          `a schema marked x-events lists ${listed.join(", ") || "no events"}, but the webhooks declare ${declared.join(", ") || "none"} (x-event): list exactly those in its enum`,
        );
      }
    }
    for (const child of Object.values(node)) visit(child, seen);
  };
  visit(root["components"], new Set());
}

function operationsOf(paths: unknown, tables: ReadonlyMap<string, Table>): ResourceOperation[] {
  const found: ResourceOperation[] = [];
  for (const [path, pathItem] of Object.entries(isObject(paths) ? paths : {})) {
    const item = isObject(pathItem) ? pathItem : {};
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation) || operation["x-action"] === undefined) continue;
      const id = String(operation["operationId"] ?? `${method} ${path}`);
      const action = operation["x-action"] as ResourceAction;
      if (!ACTIONS.includes(action)) fail(`${id}: x-action must be one of ${ACTIONS.join(", ")}`);
      const table = tableFor(id, operation["x-table"], tables);
      const parameters = [
        ...(Array.isArray(item["parameters"]) ? item["parameters"] : []),
        ...(Array.isArray(operation["parameters"]) ? operation["parameters"] : []),
      ].filter(isObject);
      found.push(resourceOperation(id, path, action, table, operation, parameters));
      const responses = isObject(operation["responses"]) ? operation["responses"] : {};
      const referrer = [...tables.values()].find((t) =>
        t.columns.some((c) => c.references === table.name),
      );
      if (action === "delete" && referrer !== undefined && responses["409"] === undefined) {
        fail(
          `${id}: a ${table.noun} that a row of ${referrer.name} names cannot be deleted, and is answered 409: document the 409`,
        );
      }
    }
  }
  return found;
}

function resourceOperation(
  id: string,
  path: string,
  action: ResourceAction,
  table: Table,
  operation: Schema,
  parameters: readonly Schema[],
): ResourceOperation {
  const body = jsonBodyOf(operation);
  const keyParameter = ["get", "update", "delete"].includes(action)
    ? path.match(/\{([^{}]+)\}$/)?.[1]
    : undefined;
  if (["get", "update", "delete"].includes(action) && keyParameter === undefined) {
    fail(`${id}: a ${action} names its row by the last part of its path, a {parameter}`);
  }
  if (action === "create" || action === "update") {
    if (body === undefined) return fail(`${id}: a ${action} takes a JSON request body`);
    const { members, required } = membersOf(body);
    const names = members.map(([member]) => member);
    storedOnly(`${id}'s request body`, names, table);
    if (action === "update" && names.includes(table.key)) {
      fail(`${id}: an update cannot change the key ${table.key}; leave it out of the body`);
    }
    for (const [member, schema] of members) {
      const column = table.columns.find((c) => c.member === member);
      if (column !== undefined) fitsColumn(`${id}'s request body member ${member}`, schema, column);
      if (column?.references !== undefined && schema["x-references"] !== column.references) {
        fail(
          `${id}'s request body member ${member} names a row of ${column.references}: mark it x-references: ${column.references}, so that a row not stored is answered 422`,
        );
      }
    }
    if (action === "create") createCovers(id, table, required);
  }
  for (const answer of answerSchemas(operation)) {
    storedOnly(
      `${id}'s answer`,
      membersOf(answer).members.map(([m]) => m),
      table,
    );
  }
  const query = action === "list" ? parameters.filter((p) => p["in"] === "query") : [];
  const after = query.find((p) => p["name"] === "after");
  if (after !== undefined) fitsColumn(`${id}'s parameter after`, schemaOf(after), keyColumn(table));
  const filters = query
    .filter((p) => !PAGING.has(String(p["name"])))
    .map((p) => filterOf(id, p, table));
  return { operationId: id, table: table.name, action, keyParameter, filters };
}

function createCovers(id: string, table: Table, required: ReadonlySet<string>): void {
  for (const column of table.columns) {
    const needed =
      column.member === table.key || (!column.nullable && column.default === undefined);
    if (needed && !required.has(column.member)) {
      fail(`${id}: the request body must require ${column.member}, which every ${table.noun} has`);
    }
  }
}

function filterOf(id: string, parameter: Schema, table: Table): string {
  const name = String(parameter["name"]);
  const column = table.columns.find((c) => c.member === name);
  if (column === undefined || column.kind === "json") {
    return fail(
      `${id}: the query parameter ${name} names no member of ${table.name} to filter on (limit and after page the list)`,
    );
  }
  fitsColumn(`${id}'s parameter ${name}`, schemaOf(parameter), column, false);
  // A page filtered on a member without an index reads the table until it is full.
  if (column.indexed !== true && column.member !== table.key) {
    fail(`${id}: the filter ${name} needs an index: mark ${table.name}.${name} x-indexed`);
  }
  return name;
}

const schemaOf = (parameter: Schema): Schema =>
  isObject(parameter["schema"]) ? parameter["schema"] : {};

/**
 * A value the schema takes is one the column keeps: the same kind and, where the column has a
 * length (PostgreSQL's VARCHAR), no longer (`bounded`), so that nothing valid is refused by the
 * database (a 5xx) or kept where its read schema would refuse it.
 */
function fitsColumn(where: string, schema: Schema, column: Column, bounded = true): void {
  const types = (Array.isArray(schema["type"]) ? schema["type"] : [schema["type"]]).filter(
    (type): type is string => typeof type === "string" && type !== "null",
  );
  const kind = kindOf(where, types, schema);
  if (kind !== column.kind) fail(`${where} is ${kind}, but its column keeps ${column.kind}`);
  const longest = schema["maxLength"];
  if (
    bounded &&
    column.maxLength !== undefined &&
    (typeof longest !== "number" || longest > column.maxLength)
  ) {
    fail(
      `${where} may be longer than its column keeps (${column.maxLength}): give it maxLength ${column.maxLength} or less`,
    );
  }
}

/** Refuses members the table does not store: they would be accepted and dropped. */
function storedOnly(where: string, members: readonly string[], table: Table): void {
  for (const member of members) {
    if (!table.columns.some((column) => column.member === member)) {
      fail(
        `${where} has the member ${member}, which the table ${table.name} does not store: add it to the schema with x-table (and run npm run generate), or take it out`,
      );
    }
  }
}

function tableFor(where: string, name: unknown, tables: ReadonlyMap<string, Table>): Table {
  const table = tables.get(String(name));
  if (table === undefined) {
    return fail(`${where}: x-table ${JSON.stringify(name)} names no schema's x-table`);
  }
  return table;
}

/** The schema of a request body's or an answer's first JSON media type. */
const jsonSchemaIn = (container: unknown): Schema | undefined => {
  const content = isObject(container) && isObject(container["content"]) ? container["content"] : {};
  const json = Object.entries(content).find(([type]) => /json/.test(type))?.[1];
  return isObject(json) && isObject(json["schema"]) ? json["schema"] : undefined;
};
const jsonBodyOf = (operation: Schema): Schema | undefined =>
  jsonSchemaIn(operation["requestBody"]);

/** The object schemas of an operation's 2xx JSON answers (a list's items). */
function answerSchemas(operation: Schema): Schema[] {
  const responses = isObject(operation["responses"]) ? operation["responses"] : {};
  return Object.entries(responses)
    .filter(([status]) => status.startsWith("2"))
    .map(([, response]) => jsonSchemaIn(response))
    .map((schema) => (schema !== undefined && isObject(schema["items"]) ? schema["items"] : schema))
    .filter((schema): schema is Schema => schema !== undefined);
}
