// What it takes to go from the tables the committed migrations make (the snapshot) to those the
// document declares: a list of changes each engine can make without losing or rewriting a row
// (ddl.ts in each engine's folder writes them). A change that would (a table or member removed
// or renamed, a type changed, a constraint tightened) is refused with one sentence saying what
// to write by hand instead.
import type { Column, Table } from "../tables.ts";

export type Change =
  | { kind: "create-table"; table: Table }
  | { kind: "add-column"; table: Table; column: Column }
  | { kind: "add-index"; table: Table; column: Column }
  | { kind: "drop-index"; table: Table; column: Column }
  /** A string's maxLength raised or lifted. */
  | { kind: "widen-column"; table: Table; column: Column };

/** The document's tables would lose or rewrite data: say so, and what to do by hand. */
export class DestructiveChangeError extends Error {
  override name = "DestructiveChangeError";
}

const BY_HAND =
  "write that migration by hand: `npm run generate -- --by-hand NAME` writes src/store/migrations/NNNN-NAME.ts for you to complete";

/** What is done with a change no migration can make safely: by default, the command stops. */
export type Refuse = (sentence: string) => void;

const stop: Refuse = (sentence) => {
  throw new DestructiveChangeError(`${sentence}; ${BY_HAND}`);
};

/**
 * The changes from `before` to `after`, in the order they must run; those that would lose or
 * rewrite data are handed to `refuse` (which stops, unless they are to be written by hand).
 */
export function tableChanges(
  before: readonly Table[],
  after: readonly Table[],
  refuse: Refuse = stop,
): Change[] {
  const changes: Change[] = [];
  for (const old of before) {
    if (!after.some((table) => table.name === old.name)) {
      refuse(`the table ${old.name} is no longer declared, and its rows would be lost`);
    }
  }
  for (const table of after) {
    const old = before.find((t) => t.name === table.name);
    if (old === undefined) changes.push({ kind: "create-table", table });
    else changes.push(...columnChanges(old, table, refuse));
  }
  return changes;
}

function columnChanges(old: Table, table: Table, refuse: Refuse): Change[] {
  if (old.key !== table.key) {
    refuse(`the key of ${table.name} changed from ${old.key} to ${table.key}`);
  }
  const changes: Change[] = [];
  for (const was of old.columns) {
    if (!table.columns.some((c) => c.member === was.member)) {
      refuse(
        `${table.name}.${was.member} is no longer declared, and its values would be lost (a rename is a removal and an addition)`,
      );
    }
  }
  for (const column of table.columns) {
    const was = old.columns.find((c) => c.member === column.member);
    if (was === undefined) {
      changes.push(...added(table, column, refuse));
      continue;
    }
    changed(table, was, column, changes, refuse);
  }
  return changes;
}

function added(table: Table, column: Column, refuse: Refuse): Change[] {
  if (!column.nullable && column.default === undefined) {
    refuse(
      `${table.name}.${column.member} is new and required, and the rows stored before have no value for it: give it a default, or make it optional`,
    );
    return [];
  }
  const changes: Change[] = [{ kind: "add-column", table, column }];
  if (column.indexed === true) changes.push({ kind: "add-index", table, column });
  return changes;
}

function changed(
  table: Table,
  was: Column,
  column: Column,
  changes: Change[],
  refuse: Refuse,
): void {
  const where = `${table.name}.${column.member}`;
  if (was.kind !== column.kind) refuse(`${where} changed type from ${was.kind} to ${column.kind}`);
  if (was.nullable !== column.nullable || was.nullIsValue !== column.nullIsValue) {
    refuse(`${where} changed between required, optional and nullable`);
  }
  if ((was.references ?? null) !== (column.references ?? null)) {
    refuse(`${where} changed what it references`);
  }
  if (was.maxLength !== column.maxLength) {
    const wider = column.maxLength === undefined || (was.maxLength ?? 0) < column.maxLength;
    if (was.maxLength !== undefined && wider) changes.push({ kind: "widen-column", table, column });
    else refuse(`${where} got a lower maxLength, which values stored before may pass`);
  }
  if ((was.indexed ?? false) !== (column.indexed ?? false)) {
    changes.push({ kind: column.indexed === true ? "add-index" : "drop-index", table, column });
  }
}

/** An index's name: the table's and the column's. */
export const indexName = (table: Table, column: Column): string => `${table.name}_${column.name}`;

/** A short account of the changes, for the migration's name and summary. */
export function describeChanges(changes: readonly Change[]): { slug: string; summary: string } {
  const parts = changes.map((change) => {
    switch (change.kind) {
      case "create-table":
        return { slug: change.table.name, text: `creates the table ${change.table.name}` };
      case "add-column":
        return {
          slug: `${change.table.name}-${change.column.name}`,
          text: `adds ${change.table.name}.${change.column.member}`,
        };
      case "add-index":
        return { slug: "", text: `indexes ${change.table.name}.${change.column.member}` };
      case "drop-index":
        return {
          slug: "",
          text: `drops the index on ${change.table.name}.${change.column.member}`,
        };
      default:
        return { slug: "", text: `widens ${change.table.name}.${change.column.member}` };
    }
  });
  const slug = parts
    .map((part) => part.slug)
    .filter((part) => part !== "")
    .join("-")
    .replaceAll("_", "-");
  return {
    slug: (slug === "" ? "indexes" : slug).slice(0, 60),
    summary: `${parts.map((part) => part.text).join(", ")}.`,
  };
}
