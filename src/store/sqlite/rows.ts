// Every declared table's rows on SQLite (tables.ts): values as SQLite keeps them and back, the
// row writes run on the write thread (statements prepared once per table), and the reads on
// the main thread's connection (WAL: a read sees the last commit and never waits for a write).
import type { Database, Statement } from "better-sqlite3";
import { jsonText, jsonValue } from "../json-values.ts";
import { PageBuilder, type ResourceReads, rowReader, sameRow } from "../rows.ts";
import { type Column, isText, keyColumn, type Row, type Table } from "../tables.ts";
import type { RowWrites, WriteArgs, WriteResult } from "../writes.ts";

type Value = bigint | number | string | null;

/** A member's value as SQLite keeps it: integers exact, booleans 0/1, JSON as its text. */
export function toSqlite(column: Column, value: unknown): Value {
  if (value === undefined || value === null) return null;
  switch (column.kind) {
    case "int64":
      return BigInt(value as bigint);
    case "boolean":
      return value === true ? 1 : 0;
    case "json":
      return jsonText(value);
    default:
      return value as number | string;
  }
}

/** A stored value as the API types it (read with safeIntegers: every INTEGER a bigint). */
function fromSqlite(column: Column): (value: Value) => unknown {
  const absent = column.nullIsValue ? null : undefined;
  switch (column.kind) {
    case "int32":
      return (value) => (value === null ? absent : Number(value));
    case "boolean":
      return (value) => (value === null ? absent : value === 1n || value === 1);
    case "json": {
      const int64At = column.int64At ?? [];
      return (value) => (value === null ? absent : jsonValue(value as string, int64At));
    }
    default:
      return (value) => (value === null ? absent : value);
  }
}

/** A raw row (the columns in the table's order) as the API types it (rows.ts). */
export const sqliteRowReader = (table: Table): ((values: readonly Value[]) => Row) =>
  rowReader(table, table.columns.map(fromSqlite), (_, index) => String(index));

export const quoted = (name: string) => `"${name}"`;
const columnList = (table: Table) => table.columns.map((c) => quoted(c.name)).join(", ");

type Apply<N extends keyof RowWrites> = (args: WriteArgs<N>) => WriteResult<N>;

/** The row writes of one table, prepared on the write thread's connection. */
export function sqliteRowWrites(db: Database, table: Table, tables: readonly Table[]) {
  const key = keyColumn(table);
  const name = quoted(table.name);
  const columns = columnList(table);
  const others = table.columns.filter((column) => column !== key);
  const raw = <T extends unknown[]>(sql: string) =>
    db.prepare<T, Value[]>(sql).safeIntegers(true).raw(true);
  const insert = db.prepare<Value[]>(
    `INSERT INTO ${name} (${columns}) VALUES (${table.columns.map(() => "?").join(", ")})
     ON CONFLICT (${quoted(key.name)}) DO NOTHING`,
  );
  const select = raw<[Value]>(`SELECT ${columns} FROM ${name} WHERE ${quoted(key.name)} = ?`);
  // A member given replaces the stored one (null removes it), one not given keeps it: a flag
  // and a value per column.
  const update = raw<Value[]>(
    `UPDATE ${name} SET ${others
      .map((c) => `${quoted(c.name)} = CASE WHEN ? THEN ? ELSE ${quoted(c.name)} END`)
      .join(", ")}
     WHERE ${quoted(key.name)} = ? RETURNING ${columns}`,
  );
  const remove = raw<[Value]>(
    `DELETE FROM ${name} WHERE ${quoted(key.name)} = ? RETURNING ${columns}`,
  );
  const missing = referenceChecks(db, table, tables);
  const rowFrom = sqliteRowReader(table);

  const createRow: Apply<"createRow"> = ({ row }) => {
    const unreferenced = missing(row);
    if (unreferenced !== undefined) return { outcome: "unreferenced", member: unreferenced };
    const values = table.columns.map((column) => toSqlite(column, row[column.member]));
    if (insert.run(...values).changes === 1) return { outcome: "created" };
    const found = select.get(toSqlite(key, row[table.key]));
    if (found === undefined)
      throw new Error(`${table.noun} ${row[table.key]} vanished after a conflict`);
    const stored = rowFrom(found);
    return { outcome: sameRow(table, stored, row) ? "replayed" : "conflict", row: stored };
  };
  const updateRow: Apply<"updateRow"> = ({ key: value, patch }) => {
    const unreferenced = missing(patch);
    if (unreferenced !== undefined) return { outcome: "unreferenced", member: unreferenced };
    const values = others.flatMap((column) =>
      column.member in patch ? [1, toSqlite(column, patch[column.member])] : [0, null],
    );
    const found = update.get(...values, toSqlite(key, value));
    return found === undefined
      ? { outcome: "absent" }
      : { outcome: "updated", row: rowFrom(found) };
  };
  const deleteRow: Apply<"deleteRow"> = ({ key: value }) => {
    const found = remove.get(toSqlite(key, value));
    return found === undefined
      ? { outcome: "absent" }
      : { outcome: "deleted", row: rowFrom(found) };
  };
  return { createRow, updateRow, deleteRow };
}

/**
 * The first member of a row that names a row of another table (x-references) not stored, or
 * undefined. The foreign key would refuse it too (409); this names the member (422).
 */
function referenceChecks(db: Database, table: Table, tables: readonly Table[]) {
  const checks = table.columns.flatMap((column) => {
    const parent = tables.find((t) => t.name === column.references);
    if (parent === undefined) return [];
    const parentKey = keyColumn(parent);
    const exists = db.prepare<[Value]>(
      `SELECT 1 FROM ${quoted(parent.name)} WHERE ${quoted(parentKey.name)} = ?`,
    );
    return [{ column, exists }];
  });
  return (row: Row): string | undefined => {
    for (const { column, exists } of checks) {
      const value = row[column.member];
      if (value === undefined || value === null) continue;
      if (exists.get(toSqlite(column, value)) === undefined) return column.member;
    }
    return undefined;
  };
}

/** The reads of one table, on the main thread's connection. */
export function sqliteRowReads(
  db: Database,
  table: Table,
  asStoreErrors: <T>(work: () => T) => T,
): ResourceReads {
  const key = keyColumn(table);
  const name = quoted(table.name);
  const columns = columnList(table);
  const text = table.columns.flatMap((column, at) => (isText(column) ? [at] : []));
  const raw = (sql: string): Statement<Value[], Value[]> =>
    db.prepare<Value[], Value[]>(sql).safeIntegers(true).raw(true);
  const one = raw(`SELECT ${columns} FROM ${name} WHERE ${quoted(key.name)} = ?`);
  const rowFrom = sqliteRowReader(table);
  // Keyset pages on the key: a range scan from `after` (on an index of the filter's column and
  // the key, where the document asks for one), whatever the size of the table. Rows come as
  // arrays (raw): better-sqlite3 builds an object row property by property from C++, and a page
  // of 100 took half as long again that way (BENCHMARKS.md, "List pages from raw rows"). One
  // statement per set of filters, prepared when first asked for.
  const pages = new Map<
    string,
    { first: Statement<Value[], Value[]>; after: Statement<Value[], Value[]> }
  >();
  const pageStatements = (filters: readonly Column[]) => {
    const id = filters.map((c) => c.name).join(",");
    let found = pages.get(id);
    if (found === undefined) {
      const where = filters.map((c) => `${quoted(c.name)} = ?`);
      const statement = (conditions: string[]) =>
        raw(
          `SELECT ${columns} FROM ${name} ${conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : ""}
           ORDER BY ${quoted(key.name)} LIMIT ?`,
        );
      found = { first: statement(where), after: statement([...where, `${quoted(key.name)} > ?`]) };
      pages.set(id, found);
    }
    return found;
  };

  return {
    async get(value) {
      return asStoreErrors(() => {
        const found = one.get(toSqlite(key, value));
        return found === undefined ? undefined : rowFrom(found);
      });
    },
    async list({ after, limit, maxTextBytes, filters = {} }) {
      return asStoreErrors(() => {
        const filtered = table.columns.filter((column) => column.member in filters);
        const values = filtered.map((column) => toSqlite(column, filters[column.member]));
        const { first, after: next } = pageStatements(filtered);
        // Row by row, so that rows past the byte bound are never read.
        const rows =
          after === undefined
            ? first.iterate(...values, limit)
            : next.iterate(...values, toSqlite(key, after), limit);
        const page = new PageBuilder(limit, maxTextBytes);
        for (const found of rows) {
          let bytes = 0;
          for (const at of text) {
            const value = found[at];
            if (typeof value === "string") bytes += Buffer.byteLength(value);
          }
          if (!page.add(rowFrom(found), bytes)) break;
        }
        return page.done();
      });
    },
  };
}
