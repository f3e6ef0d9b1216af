// Whether a server keeps what it accepts, derived from the document with no check written per
// member: for every declared table (x-table), a create with every member of its body set, read
// back, must return each member as sent; a merge patch of every member likewise; and each filter
// of its list must return every row it made that matches, and none that does not. A member the
// API accepts and drops fails here, whatever its name. It writes: run only where that is allowed.
import fc from "fast-check";
import { type ApiData, membersOf, type ResourceOperation } from "../openapi/data.ts";
import { jsonText, jsonValue, sameJson } from "../store/json-values.ts";
import type { Row, Table } from "../store/tables.ts";
import { type Schema, SchemaValues } from "./schema-values.ts";

/**
 * One request to the server: a path with its query, a JSON body's text, and the operation it
 * is; `link` is the answer's Link header.
 */
export type Call = (
  method: string,
  target: string,
  body: string | undefined,
  operationId: string,
) => Promise<{ status: number; text: string; link?: string | undefined }>;

/**
 * Where a run may write only rows it owns (a deployment's conformance run): the key of each
 * row it makes, and of each row a member names; undefined when it has none to give, and the
 * table is then not checked (`note` says why).
 */
export interface KeySource {
  key(table: Table): unknown;
  note(line: string): void;
}

/** What a check found wrong, a sentence each; none when the server keeps every member. */
export type Findings = string[];

type Document = {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
};

/** What every check of one run shares. */
interface Run {
  document: Document;
  data: ApiData;
  values: SchemaValues;
  call: Call;
  seed: number;
  keys: KeySource | undefined;
}

/** A table's plain actions, as the document declares them, with their paths and bodies. */
interface Actions {
  table: Table;
  create: { path: string; body: Schema };
  itemPath: (key: unknown) => string;
  ids: { create: string; get: string; delete: string | undefined };
  update?: { id: string; body: Schema } | undefined;
  list?: { id: string; path: string; filters: readonly string[] } | undefined;
}

/** Every declared table with a create and a read, checked in turn. */
export async function checkStoredData(
  document: unknown,
  data: ApiData,
  call: Call,
  seed: number,
  keys?: KeySource,
): Promise<Findings> {
  const doc = document as Document;
  const run: Run = {
    document: doc,
    data,
    values: new SchemaValues(doc.components?.schemas ?? {}),
    call,
    seed,
    keys,
  };
  const findings: Findings = [];
  for (const table of data.tables) {
    const actions = actionsOf(run, table);
    if (actions !== undefined) findings.push(...(await checkTable(run, actions)));
  }
  return findings;
}

async function checkTable(run: Run, actions: Actions): Promise<Findings> {
  const { table } = actions;
  const findings: Findings = [];
  const made: Row[] = [];
  const parents: { actions: Actions; row: Row }[] = [];
  const create = async (row: Row): Promise<boolean> => {
    for (const parent of await parentsFor(run, table, row)) parents.push(parent);
    const answer = await run.call("POST", actions.create.path, jsonText(row), actions.ids.create);
    if (answer.status >= 300) {
      findings.push(
        `creating a valid ${table.noun} was answered ${answer.status}: ${answer.text.slice(0, 200)}`,
      );
      return false;
    }
    made.push(row);
    return true;
  };
  try {
    const row = owned(run, table, everyMember(run, actions.create.body, run.seed));
    if (row !== undefined && (await create(row))) {
      findings.push(...(await readBack(run, actions, row, "the create")));
      const patch =
        actions.update === undefined
          ? undefined
          : owned(run, table, everyMember(run, actions.update.body, run.seed + 1), false);
      if (actions.update !== undefined && patch !== undefined) {
        for (const parent of await parentsFor(run, table, patch)) parents.push(parent);
        const target = actions.itemPath(row[table.key]);
        const answer = await run.call("PATCH", target, jsonText(patch), actions.update.id);
        if (answer.status >= 300) {
          findings.push(
            `a valid patch of a ${table.noun} was answered ${answer.status}: ${answer.text.slice(0, 200)}`,
          );
        } else {
          findings.push(...(await readBack(run, actions, { ...row, ...patch }, actions.update.id)));
        }
      }
    }
    for (const member of actions.list?.filters ?? []) {
      findings.push(...(await checkFilter(run, actions, member, create)));
    }
  } finally {
    for (const row of made) await remove(run, actions, row);
    for (const parent of parents.reverse()) await remove(run, parent.actions, parent.row);
  }
  return findings;
}

async function remove(run: Run, actions: Actions, row: Row): Promise<void> {
  const { delete: id } = actions.ids;
  if (id !== undefined) {
    await run.call("DELETE", actions.itemPath(row[actions.table.key]), undefined, id);
  }
}

/**
 * The row with keys the run owns (KeySource) in place of the made-up ones: its own key (when
 * `keyed`) and each member naming another table's row. Undefined when a key cannot be had.
 */
function owned(run: Run, table: Table, row: Row, keyed = true): Row | undefined {
  const { keys } = run;
  if (keys === undefined) return row;
  const mine: Row = { ...row };
  const give = (member: string, of: Table): boolean => {
    const key = keys.key(of);
    if (key === undefined) {
      keys.note(`${table.name} not checked for dropped members: no key of ${of.name} to write`);
      return false;
    }
    mine[member] = key;
    return true;
  };
  if (keyed && !give(table.key, table)) return undefined;
  for (const column of table.columns) {
    const parent = run.data.tables.find((t) => t.name === column.references);
    if (parent === undefined || mine[column.member] === undefined || mine[column.member] === null) {
      continue;
    }
    if (!give(column.member, parent)) return undefined;
  }
  return mine;
}

function actionsOf(run: Run, table: Table): Actions | undefined {
  const find = (action: string) =>
    run.data.operations.find((op) => op.table === table.name && op.action === action);
  const create = find("create");
  const get = find("get");
  if (create === undefined || get === undefined) return undefined;
  const update = find("update");
  const list = find("list");
  const getPath = operationOf(run.document, get.operationId).path;
  const keyParameter = `{${get.keyParameter ?? table.key}}`;
  return {
    table,
    create: { path: operationOf(run.document, create.operationId).path, body: bodyOf(run, create) },
    itemPath: (key) => getPath.replace(keyParameter, encodeURIComponent(queryText(key))),
    ids: { create: create.operationId, get: get.operationId, delete: find("delete")?.operationId },
    update:
      update === undefined ? undefined : { id: update.operationId, body: bodyOf(run, update) },
    list:
      list === undefined
        ? undefined
        : {
            id: list.operationId,
            path: operationOf(run.document, list.operationId).path,
            filters: list.filters,
          },
  };
}

function operationOf(document: Document, operationId: string) {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if ((operation as { operationId?: string }).operationId === operationId) {
        return {
          path,
          operation: operation as {
            requestBody?: { content?: Record<string, { schema?: Schema }> };
          },
        };
      }
    }
  }
  throw new Error(`the document has no operation ${operationId}`);
}

/** The operation's JSON body schema, with $refs followed and allOf merged. */
function bodyOf(run: Run, op: ResourceOperation): Schema {
  const content = operationOf(run.document, op.operationId).operation.requestBody?.content ?? {};
  const schema = Object.entries(content).find(([type]) => type.includes("json"))?.[1]?.schema;
  return run.values.flat(schema ?? {});
}

function everyMember(run: Run, schema: Schema, seed: number): Row {
  return everyMemberOf(run.values, schema, seed);
}

/** A value of the (flat) body schema with every member it names set, and not to null. */
export function everyMemberOf(values: SchemaValues, schema: Schema, seed: number): Row {
  const { members } = membersOf(schema as Record<string, unknown>);
  const found = fc
    .sample(values.validValue(schema, 4096), { numRuns: 200, seed })
    .find((value) =>
      members.every(
        ([name]) => (value as Row)[name] !== undefined && (value as Row)[name] !== null,
      ),
    );
  if (found === undefined) throw new Error("no value with every member set could be made");
  return found as Row;
}

/** The rows of other tables that `row` names (x-references), created first where missing. */
async function parentsFor(
  run: Run,
  table: Table,
  row: Row,
): Promise<{ actions: Actions; row: Row }[]> {
  const made: { actions: Actions; row: Row }[] = [];
  for (const column of table.columns) {
    const value = row[column.member];
    const parent = run.data.tables.find((t) => t.name === column.references);
    if (parent === undefined || value === undefined || value === null) continue;
    const actions = actionsOf(run, parent);
    if (actions === undefined) continue;
    const parentRow = {
      ...everyMember(run, actions.create.body, run.seed + 3),
      [parent.key]: value,
    };
    const answer = await run.call(
      "POST",
      actions.create.path,
      jsonText(parentRow),
      actions.ids.create,
    );
    if (answer.status < 300) made.push({ actions, row: parentRow });
  }
  return made;
}

/** Reads the row back and names each member that did not come back as sent. */
async function readBack(run: Run, actions: Actions, sent: Row, after: string): Promise<Findings> {
  const { table } = actions;
  const answer = await run.call(
    "GET",
    actions.itemPath(sent[table.key]),
    undefined,
    actions.ids.get,
  );
  if (answer.status !== 200) {
    return [`after ${after}, reading the ${table.noun} back was answered ${answer.status}`];
  }
  const stored = jsonValue(answer.text) as Row;
  return Object.entries(sent)
    .filter(([member, value]) => value !== null && !sameJson(stored[member], value))
    .map(
      ([member, value]) =>
        `after ${after}, ${table.name}.${member} came back as ${jsonText(stored[member] ?? null).slice(0, 100)}, not as sent (${jsonText(value).slice(0, 100)}): the member is dropped or changed`,
    );
}

/**
 * Two rows with different values of the filter's member: the list filtered on the first's value
 * must hold it, not the second, and only rows whose member has that value.
 */
async function checkFilter(
  run: Run,
  actions: Actions,
  member: string,
  create: (row: Row) => Promise<boolean>,
): Promise<Findings> {
  const { table, list } = actions;
  if (list === undefined) return [];
  const rows = fc
    .sample(run.values.validValue(actions.create.body, 2048), { numRuns: 60, seed: run.seed + 7 })
    .map((row) => row as Row)
    .filter((row) => row[member] !== undefined && row[member] !== null);
  const made = rows[0];
  const other = rows.find(
    (row) => !sameJson(row[member], made?.[member]) && !sameJson(row[table.key], made?.[table.key]),
  );
  if (made === undefined || other === undefined) return [];
  const first = owned(run, table, made);
  const second = owned(run, table, other);
  if (first === undefined || second === undefined) return [];
  if (!(await create(first)) || !(await create(second))) return [];
  const wanted = first[member];
  const seen: Row[] = [];
  let target: string | undefined =
    `${list.path}?${encodeURIComponent(member)}=${encodeURIComponent(queryText(wanted))}`;
  for (let pages = 0; target !== undefined && pages < 50; pages++) {
    const answer = await run.call("GET", target, undefined, list.id);
    if (answer.status !== 200)
      return [`filtering ${table.name} on ${member} was answered ${answer.status}`];
    seen.push(...(jsonValue(answer.text) as Row[]));
    target = nextOf(answer.link);
  }
  const findings: Findings = [];
  const others = seen.filter((row) => !sameJson(row[member], wanted));
  if (others.length > 0) {
    findings.push(
      `filtering ${table.name} on ${member} returned ${others.length} rows that do not match`,
    );
  }
  const has = (row: Row) => seen.some((r) => sameJson(r[table.key], row[table.key]));
  if (!has(first)) findings.push(`filtering ${table.name} on ${member} left out a matching row`);
  if (has(second))
    findings.push(`filtering ${table.name} on ${member} returned a row of another value`);
  return findings;
}

/** A value as a path or query parameter writes it: a string as it is, the rest as JSON. */
const queryText = (value: unknown) => (typeof value === "string" ? value : jsonText(value));

/** The path and query of a Link header's rel="next", if it has one (one link, as sent here). */
function nextOf(link: string | undefined): string | undefined {
  const end = link?.indexOf(">") ?? -1;
  if (link === undefined || !link.startsWith("<") || end === -1) return undefined;
  if (!link.slice(end).includes('rel="next"')) return undefined;
  const url = link.slice(1, end);
  const parsed = new URL(url, "http://server.invalid");
  return `${parsed.pathname}${parsed.search}`;
}
