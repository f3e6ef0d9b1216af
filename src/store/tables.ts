// What the document declares of the data (derived from openapi/plants.yaml by
// src/openapi/data.ts): each resource's table and columns, and the events writes send. It is
// the only description of them the store reads: plain data, so that it crosses to the SQLite
// write thread, and is kept beside the migrations as the snapshot they were made from.

/** How a member's values are kept, one per JSON Schema type the store takes. */
export type ColumnKind = "int64" | "int32" | "number" | "string" | "boolean" | "json";

export interface Column {
  /** The member's name in the API's JSON. */
  member: string;
  /** Its column: the member's name in snake_case. */
  name: string;
  kind: ColumnKind;
  /**
   * NULL allowed: an optional member (NULL when it is absent) or a nullable one (NULL for null);
   * never both, so that each reads back as it was sent.
   */
  nullable: boolean;
  /** NULL is the member's null (a nullable member), not its absence (an optional one). */
  nullIsValue: boolean;
  /** Strings: at most this many characters (the schema's maxLength). */
  maxLength?: number | undefined;
  /** `x-indexed`: an index on (this column, the key) serves filters on it. */
  indexed?: boolean | undefined;
  /** `x-references`: the value is the key of a row of this table (a foreign key). */
  references?: string | undefined;
  /** JSON members: where int64s stand in the value (member names, "[*]" for any item). */
  int64At?: string[][] | undefined;
  /** A new member's `default`, which the rows stored before it get. */
  default?: string | number | boolean | undefined;
}

export interface Table {
  name: string;
  /** How a message names one row: "plant". */
  noun: string;
  /** The member that is the key: unique, given by the creator, never changed. */
  key: string;
  /** In the order the schema lists its members. */
  columns: Column[];
}

export type WriteAction = "create" | "update" | "delete";

/** An event a write sends: a `webhooks` entry of the document with `x-event`. */
export interface EventDeclaration {
  /** The name endpoints subscribe to and every message carries. */
  type: string;
  table: string;
  /** The write that sends it, when it changes a row. */
  on: WriteAction;
  /** The members of the row its body holds, in the table's order. */
  members: string[];
}

/** The message header that carries its event's type; each webhook documents it as a const. */
export const EVENT_HEADER = "webhook-event";

export interface DataDeclaration {
  tables: Table[];
  events: EventDeclaration[];
}

/** A row as the API types it: members by name, int64s as bigint, absent optional members left out. */
export type Row = Record<string, unknown>;

export const keyColumn = (table: Table): Column => {
  const column = table.columns.find((c) => c.member === table.key);
  if (column === undefined) throw new Error(`table ${table.name} has no key column ${table.key}`);
  return column;
};

/** The table of that name, or an error naming it. */
export function tableNamed(declaration: DataDeclaration, name: string): Table {
  const table = declaration.tables.find((t) => t.name === name);
  if (table === undefined) throw new Error(`the document declares no table ${name}`);
  return table;
}

/** Columns whose text counts towards a page's byte bound: strings and JSON. */
export const isText = (column: Column): boolean =>
  column.kind === "string" || column.kind === "json";
