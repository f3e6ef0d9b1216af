// The PostgreSQL steps of a generated migration (migrations/diff.ts's changes), written so that
// instances still serving while it runs are not held up: a column is added without a rewrite
// (nullable, or with a constant default), an index on a table that has rows is built
// CONCURRENTLY, outside a transaction, and a foreign key to a table already there is added
// NOT VALID and validated after, which locks no writes out. Each step can run again (IF NOT
// EXISTS), so a migration stopped half-way is finished by the next start.
import { type Change, indexName } from "../migrations/diff.ts";
import type { PostgresStep } from "../migrations/migration.ts";
import { type Column, keyColumn, type Table } from "../tables.ts";

const quoted = (name: string) => `"${name}"`;

function typeOf(column: Column): string {
  switch (column.kind) {
    case "int64":
      return "BIGINT";
    case "int32":
      return "INTEGER";
    case "number":
      return "DOUBLE PRECISION";
    case "boolean":
      return "BOOLEAN";
    case "json":
      return "JSONB";
    default:
      return column.maxLength === undefined ? "TEXT" : `VARCHAR(${column.maxLength})`;
  }
}

const literal = (value: string | number | boolean): string =>
  typeof value === "string" ? `'${value.replaceAll("'", "''")}'` : String(value);

function columnDefinition(table: Table, column: Column): string {
  const parts = [quoted(column.name), typeOf(column)];
  if (column.member === table.key) parts.push("PRIMARY KEY");
  if (!column.nullable) parts.push("NOT NULL");
  if (column.default !== undefined) parts.push(`DEFAULT ${literal(column.default)}`);
  return parts.join(" ");
}

const foreignKey = (table: Table, column: Column) => `${table.name}_${column.name}_fkey`;
const references = (column: Column) => `REFERENCES ${quoted(column.references ?? "")}`;

function index(table: Table, column: Column, concurrently: boolean): PostgresStep {
  const sql = `CREATE INDEX ${concurrently ? "CONCURRENTLY " : ""}IF NOT EXISTS ${quoted(indexName(table, column))} ON ${quoted(table.name)} (${quoted(column.name)}, ${quoted(keyColumn(table).name)})`;
  return concurrently ? { sql, concurrently: true } : { sql };
}

export function postgresSteps(change: Change): PostgresStep[] {
  const { table } = change;
  const name = quoted(table.name);
  switch (change.kind) {
    case "create-table": {
      // A new table is empty: its keys and indexes cost nothing to make at once.
      const keys = table.columns
        .filter((c) => c.references !== undefined)
        .map((c) => `FOREIGN KEY (${quoted(c.name)}) ${references(c)}`);
      const definitions = [...table.columns.map((c) => columnDefinition(table, c)), ...keys];
      return [
        { sql: `CREATE TABLE IF NOT EXISTS ${name} (\n  ${definitions.join(",\n  ")}\n)` },
        ...table.columns.filter((c) => c.indexed === true).map((c) => index(table, c, false)),
      ];
    }
    case "add-column": {
      const { column } = change;
      const steps: PostgresStep[] = [
        { sql: `ALTER TABLE ${name} ADD COLUMN IF NOT EXISTS ${columnDefinition(table, column)}` },
      ];
      if (column.references !== undefined) {
        const key = quoted(foreignKey(table, column));
        steps.push(
          {
            sql: `ALTER TABLE ${name} ADD CONSTRAINT ${key} FOREIGN KEY (${quoted(column.name)}) ${references(column)} NOT VALID`,
          },
          { sql: `ALTER TABLE ${name} VALIDATE CONSTRAINT ${key}` },
        );
      }
      return steps;
    }
    case "add-index":
      return [index(table, change.column, true)];
    case "drop-index":
      return [
        {
          sql: `DROP INDEX CONCURRENTLY IF EXISTS ${quoted(indexName(table, change.column))}`,
          concurrently: true,
        },
      ];
    default:
      // Raising a varchar's length or lifting it rewrites nothing.
      return [
        {
          sql: `ALTER TABLE ${name} ALTER COLUMN ${quoted(change.column.name)} TYPE ${typeOf(change.column)}`,
        },
      ];
  }
}
