// Every declared table's rows on PostgreSQL (tables.ts): a run of one write on one table (the
// consecutive writes of a batch) applied in as few statements as it can, inside the batch's
// transaction, with one result per write in the order given; and the reads, one statement each
// on the pool. Every value travels as text and is cast on the server, so no int64 passes through
// a double and one array shape serves every column. The statements' own names are quoted
// capitals ("Key", "Bytes"): a member's column is lower case (data.ts), so none can clash.
import { jsonText, jsonValue } from "../json-values.ts";
import { type ResourceReads, rowReader, sameRow } from "../rows.ts";
import { type Column, isText, keyColumn, type Row, type Table } from "../tables.ts";
import type {
  CreateOutcome,
  DeleteOutcome,
  RowWrites,
  UpdateOutcome,
  WriteArgs,
} from "../writes.ts";
import type { BoundedCalls } from "./deadlines.ts";
import { asStoreError } from "./errors.ts";
import type { PostgresTransaction } from "./writes.ts";

const quoted = (name: string) => `"${name}"`;

const CASTS: Record<Column["kind"], string> = {
  int64: "int8",
  int32: "int4",
  number: "float8",
  boolean: "bool",
  string: "text",
  json: "jsonb",
};

/** A member's value as the text PostgreSQL casts to its column's type. */
function asText(column: Column, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return column.kind === "json" ? jsonText(value) : String(value);
}

/** A column as read: JSON as its text, to be parsed without rounding. */
const selected = (column: Column) =>
  column.kind === "json"
    ? `${quoted(column.name)}::text AS ${quoted(column.name)}`
    : quoted(column.name);

/** A column's value as the API types it, the conversion chosen once per column (as on SQLite). */
function fromPostgres(column: Column): (value: unknown) => unknown {
  const absent = column.nullIsValue ? null : undefined;
  const present = (read: (value: unknown) => unknown) => (value: unknown) =>
    value === null || value === undefined ? absent : read(value);
  if (column.kind === "json") {
    const int64At = column.int64At ?? [];
    return present((value) => jsonValue(value as string, int64At));
  }
  if (column.kind === "int64") return present((value) => BigInt(value as bigint));
  return present((value) => value);
}

/** A row as postgres.js gives it (by column name) as the API types it (rows.ts). */
export const postgresRowReader = (table: Table): ((found: Record<string, unknown>) => Row) =>
  rowReader(table, table.columns.map(fromPostgres), (column) => JSON.stringify(column.name));

/** What a table's statements share. */
function shape(table: Table) {
  const key = keyColumn(table);
  return {
    key,
    name: quoted(table.name),
    keyName: quoted(key.name),
    keyCast: CASTS[key.kind],
    columns: table.columns.map(selected).join(", "),
    keyText: (value: unknown) => asText(key, value) ?? "",
    rowFrom: postgresRowReader(table),
  };
}

type Apply<N extends keyof RowWrites> = (
  tx: PostgresTransaction,
  run: readonly WriteArgs<N>[],
) => Promise<RowWrites[N]["result"][]>;

/** The row writes of one table, each applying a run of its writes. */
export function postgresRowWrites(table: Table, tables: readonly Table[]) {
  const { key, name, keyName, keyCast, columns, keyText, rowFrom } = shape(table);
  const others = table.columns.filter((column) => column !== key);
  const missing = referenceChecks(table, tables);
  const arrays = (rows: readonly Row[], of: readonly Column[]) =>
    of.map((column) => rows.map((row) => asText(column, row[column.member])));
  const unnest = (count: number, from = 1) =>
    Array.from({ length: count }, (_, i) => `$${from + i}::text[]`).join(", ");

  // For a key given twice, the first in order is the one inserted and the later ones meet it,
  // exactly as if they had come one after the other.
  const insert = `
    INSERT INTO ${name} (${table.columns.map((c) => quoted(c.name)).join(", ")})
    SELECT ${table.columns.map((c) => quoted(c.name)).join(", ")} FROM (
      SELECT DISTINCT ON (${keyName}) * FROM (
        SELECT ${table.columns.map((c, i) => `t."C${i}"::${CASTS[c.kind]} AS ${quoted(c.name)}`).join(", ")}, t."N"
        FROM unnest(${unnest(table.columns.length)}) WITH ORDINALITY
          AS t(${table.columns.map((_, i) => `"C${i}"`).join(", ")}, "N")
      ) AS given ORDER BY ${keyName}, "N"
    ) AS firsts
    ON CONFLICT (${keyName}) DO NOTHING RETURNING ${keyName}::text AS "Key"`;
  const stored = `SELECT ${columns}, ${keyName}::text AS "Key" FROM ${name} WHERE ${keyName} = ANY($1::${keyCast}[])`;
  // A member given replaces the stored one (null removes it), one not given keeps it: a flag
  // and a value per column. The flags are text: postgres.js mistypes a boolean array.
  const update = `
    UPDATE ${name} AS p SET ${others
      .map(
        (c, i) =>
          `${quoted(c.name)} = CASE c."F${i}" WHEN 'set' THEN c."V${i}"::${CASTS[c.kind]} ELSE p.${quoted(c.name)} END`,
      )
      .join(", ")}
    FROM unnest(${unnest(1 + others.length * 2)})
      AS c("K", ${others.map((_, i) => `"F${i}", "V${i}"`).join(", ")})
    WHERE p.${keyName} = c."K"::${keyCast}
    RETURNING ${table.columns.map((c) => `p.${selected(c)}`).join(", ")}, p.${keyName}::text AS "Key"`;
  const remove = `DELETE FROM ${name} WHERE ${keyName} = ANY($1::${keyCast}[]) RETURNING ${columns}, ${keyName}::text AS "Key"`;

  const createRow: Apply<"createRow"> = async (tx, run) => {
    const absent = await missing(
      tx,
      run.map(({ row }) => row),
    );
    const given = run.filter((_, at) => absent[at] === undefined).map(({ row }) => row);
    const inserted = new Set(
      given.length === 0
        ? []
        : (await tx.unsafe<{ Key: string }[]>(insert, arrays(given, table.columns))).map(
            (r) => r.Key,
          ),
    );
    const keys = run.map(({ row }) => keyText(row[table.key]));
    const others = keys.filter((k, at) => absent[at] === undefined && !inserted.has(k));
    // A statement of its own, so it sees rows other transactions committed after ours began.
    const rows = new Map<string, Row>(
      others.length === 0
        ? []
        : (await tx.unsafe<Record<string, unknown>[]>(stored, [others])).map((found) => [
            String(found["Key"]),
            rowFrom(found),
          ]),
    );
    const first = new Set<string>();
    return run.map(({ row }, at): CreateOutcome => {
      const member = absent[at];
      if (member !== undefined) return { outcome: "unreferenced", member };
      const id = keys[at] as string;
      const isFirst = !first.has(id);
      first.add(id);
      if (isFirst && inserted.has(id)) {
        rows.set(id, row);
        return { outcome: "created" };
      }
      const found = rows.get(id);
      if (found === undefined) throw new Error(`${table.noun} ${id} vanished after a conflict`);
      return { outcome: sameRow(table, found, row) ? "replayed" : "conflict", row: found };
    });
  };

  // One UPDATE per round, where round r holds the r-th change of each key: one UPDATE cannot
  // apply two changes to one row, and rounds in order keep each key's changes in order (a later
  // one sees the earlier). Mostly a run has each key once: one statement.
  const updateRow: Apply<"updateRow"> = async (tx, run) => {
    const absent = await missing(
      tx,
      run.map(({ patch }) => patch),
    );
    const rounds: { at: number; key: string; patch: Row }[][] = [];
    const seen = new Map<string, number>();
    for (const [at, { key: value, patch }] of run.entries()) {
      if (absent[at] !== undefined) continue;
      const id = keyText(value);
      const round = seen.get(id) ?? 0;
      seen.set(id, round + 1);
      if (round === rounds.length) rounds.push([]);
      rounds[round]?.push({ at, key: id, patch });
    }
    const results: UpdateOutcome[] = run.map((_, at) => {
      const member = absent[at];
      return member === undefined ? { outcome: "absent" } : { outcome: "unreferenced", member };
    });
    for (const round of rounds) {
      const values = [
        round.map(({ key: k }) => k),
        ...others.flatMap((column) => [
          round.map(({ patch }) => (column.member in patch ? "set" : "keep")),
          round.map(({ patch }) => asText(column, patch[column.member])),
        ]),
      ];
      const found = await tx.unsafe<Record<string, unknown>[]>(update, values);
      const byKey = new Map(found.map((r) => [String(r["Key"]), rowFrom(r)]));
      for (const { at, key: k } of round) {
        const row = byKey.get(k);
        if (row !== undefined) results[at] = { outcome: "updated", row };
      }
    }
    return results;
  };

  const deleteRow: Apply<"deleteRow"> = async (tx, run) => {
    const keys = run.map(({ key: value }) => keyText(value));
    const found = await tx.unsafe<Record<string, unknown>[]>(remove, [keys]);
    const deleted = new Map(found.map((r) => [String(r["Key"]), rowFrom(r)]));
    // A key given twice is deleted by the first; the later ones find nothing.
    return keys.map((k): DeleteOutcome => {
      const row = deleted.get(k);
      deleted.delete(k);
      return row === undefined ? { outcome: "absent" } : { outcome: "deleted", row };
    });
  };
  return { createRow, updateRow, deleteRow };
}

/**
 * For each row, the first member that names a row of another table (x-references) not stored,
 * or undefined. The foreign key would refuse it too (409); this names the member (422).
 */
function referenceChecks(table: Table, tables: readonly Table[]) {
  const checks = table.columns.flatMap((column) => {
    const parent = tables.find((t) => t.name === column.references);
    if (parent === undefined) return [];
    const { name, keyName, keyCast } = shape(parent);
    const sql = `SELECT ${keyName}::text AS "Key" FROM ${name} WHERE ${keyName} = ANY($1::${keyCast}[])`;
    return [{ column, sql }];
  });
  return async (tx: PostgresTransaction, rows: readonly Row[]): Promise<(string | undefined)[]> => {
    const absent: (string | undefined)[] = rows.map(() => undefined);
    for (const { column, sql } of checks) {
      const named = rows.map((row) => asText(column, row[column.member]));
      const wanted = named.filter((value): value is string => value !== null);
      if (wanted.length === 0) continue;
      const found = new Set((await tx.unsafe<{ Key: string }[]>(sql, [wanted])).map((r) => r.Key));
      named.forEach((value, at) => {
        if (value !== null && !found.has(value) && absent[at] === undefined)
          absent[at] = column.member;
      });
    }
    return absent;
  };
}

/**
 * The reads of one table. Keyset pages on the key: an index range scan from `after` (on the
 * index of a filter's column and the key, where the document asks for one), whatever the
 * table's size; the server cuts the page at the byte bound, so rows past it are never sent.
 */
export function postgresRowReads(table: Table, calls: BoundedCalls): ResourceReads {
  const { key, name, keyName, keyCast, columns, rowFrom } = shape(table);
  const numeric = key.kind === "int64" || key.kind === "int32";
  const bytes =
    table.columns
      .filter(isText)
      .map(
        (c) => `coalesce(octet_length(${quoted(c.name)}${c.kind === "json" ? "::text" : ""}), 0)`,
      )
      .join(" + ") || "0";
  const one = `SELECT ${columns} FROM ${name} WHERE ${keyName} = $1::${keyCast}`;
  const pageText = (conditions: readonly string[]) => `
    SELECT ${table.columns.map((c) => quoted(c.name)).join(", ")}, "Fetched", "Upto" FROM (
      SELECT *, count(*) OVER () AS "Fetched", sum("Bytes") OVER (ORDER BY ${keyName}) AS "Upto"
      FROM (
        SELECT ${columns}, ${bytes} AS "Bytes" FROM ${name}
        ${conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : ""}
        ORDER BY ${keyName} LIMIT $1::int4
      ) AS candidates
    ) AS page
    WHERE "Upto" <= $2::int8 OR "Upto" = "Bytes"
    ORDER BY ${keyName}`;
  // Each shape of page (which filters, whether after a key) written once: postgres.js finds its
  // prepared statement by the text, which a new string per request would make it hash again.
  const pages = new Map<string, string>();
  const page = (shape: string, conditions: readonly string[]) => {
    let text = pages.get(shape);
    if (text === undefined) {
      text = pageText(conditions);
      pages.set(shape, text);
    }
    return text;
  };
  // Whole numbers only take the pool's quickest path (readNumbers); text values a transaction.
  // Awaited in the caller's own try: one async frame a read.
  const read = (text: string, values: readonly unknown[]) =>
    values.every((v) => typeof v === "bigint" || typeof v === "number")
      ? calls.readNumbers<Record<string, unknown>>(text, values as (bigint | number)[])
      : calls.read((q) => q.unsafe<Record<string, unknown>[]>(text, values as string[]));

  return {
    async get(value) {
      let found: Record<string, unknown> | undefined;
      try {
        // An index, not `[found] =`: destructuring here tripled what survived young-generation
        // collections under a load of GETs (V8's --trace-gc-nvp), and its CPU with it.
        found = (await read(one, [numeric ? BigInt(value as bigint) : keyText(value)]))[0];
      } catch (error) {
        throw asStoreError(error);
      }
      return found === undefined ? undefined : rowFrom(found);
    },
    async list({ after, limit, maxTextBytes, filters = {} }) {
      const filtered = table.columns.filter((column) => column.member in filters);
      const values: unknown[] = [limit, maxTextBytes];
      const conditions = filtered.map((column) => {
        values.push(asText(column, filters[column.member]));
        // Sent as text and cast here: postgres.js writes a parameter the server types as bool
        // from JavaScript's true only.
        return `${quoted(column.name)} = $${values.length}::text::${CASTS[column.kind]}`;
      });
      if (after !== undefined) {
        values.push(numeric ? BigInt(after as bigint) : keyText(after));
        conditions.push(`${keyName} > $${values.length}::${keyCast}`);
      }
      let found: Record<string, unknown>[];
      try {
        const shape = `${filtered.map((column) => column.name).join(",")}${after === undefined ? "" : ">"}`;
        found = await read(page(shape, conditions), values);
      } catch (error) {
        throw asStoreError(error);
      }
      const fetched = Number(found[0]?.["Fetched"] ?? 0);
      return {
        rows: found.map((r) => rowFrom(r)),
        full: found.length < fetched || fetched >= limit,
      };
    },
  };

  function keyText(value: unknown): string {
    return asText(key, value) ?? "";
  }
}
