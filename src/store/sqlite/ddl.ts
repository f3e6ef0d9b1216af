// The SQLite statements of a generated migration (migrations/diff.ts's changes): STRICT tables,
// so a value of the wrong type is refused rather than converted; an integer key is the rowid.
import { type Change, indexName } from "../migrations/diff.ts";
import { type Column, keyColumn, type Table } from "../tables.ts";
import { quoted } from "./rows.ts";

const TYPES: Record<Column["kind"], string> = {
  int64: "INTEGER",
  int32: "INTEGER",
  boolean: "INTEGER",
  number: "REAL",
  string: "TEXT",
  json: "TEXT",
};

const literal = (value: string | number | boolean): string =>
  typeof value === "string" ? `'${value.replaceAll("'", "''")}'` : String(Number(value));

function columnDefinition(table: Table, column: Column): string {
  const parts = [quoted(column.name), TYPES[column.kind]];
  if (column.member === table.key) parts.push("PRIMARY KEY");
  if (!column.nullable) parts.push("NOT NULL");
  if (column.default !== undefined) parts.push(`DEFAULT ${literal(column.default)}`);
  if (column.references !== undefined) parts.push(`REFERENCES ${quoted(column.references)}`);
  return parts.join(" ");
}

const createIndex = (table: Table, column: Column) =>
  `CREATE INDEX ${quoted(indexName(table, column))} ON ${quoted(table.name)} (${quoted(column.name)}, ${quoted(keyColumn(table).name)})`;

export function sqliteStatements(change: Change): string[] {
  const { table } = change;
  switch (change.kind) {
    case "create-table":
      return [
        `CREATE TABLE ${quoted(table.name)} (\n  ${table.columns
          .map((column) => columnDefinition(table, column))
          .join(",\n  ")}\n) STRICT`,
        ...table.columns.filter((c) => c.indexed === true).map((c) => createIndex(table, c)),
      ];
    case "add-column":
      return [
        `ALTER TABLE ${quoted(table.name)} ADD COLUMN ${columnDefinition(table, change.column)}`,
      ];
    case "add-index":
      return [createIndex(table, change.column)];
    case "drop-index":
      return [`DROP INDEX IF EXISTS ${quoted(indexName(table, change.column))}`];
    default:
      // SQLite keeps no length: the document's maxLength is checked with the inputs.
      return [];
  }
}
