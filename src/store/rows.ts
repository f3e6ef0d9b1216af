// The rows of every declared table (tables.ts), engine-free: a repository per table whose
// writes go through the one write path (writes.ts) and whose reads are each engine's, how a
// member's value is compared, and how a page is cut at its byte bound.
import { sameJson } from "./json-values.ts";
import type { Resources } from "./store.ts";
import type { Column, Row, Table } from "./tables.ts";
import type { CreateOutcome, UpdateOutcome, WritePath } from "./writes.ts";

export type CreateResult<R extends Row = Row> =
  /** Stored now, or already stored with the same members (an idempotent replay). */
  | { kind: "created" | "replayed"; row: R }
  /** Already stored under this key with other members; nothing was changed. */
  | { kind: "conflict"; existing: R }
  /** A member names a row of another table (x-references) that is not stored. */
  | { kind: "unreferenced"; member: string; value: unknown };

export type UpdateResult<R extends Row = Row> =
  | { kind: "updated"; row: R }
  | { kind: "absent" }
  | { kind: "unreferenced"; member: string; value: unknown };

/** A merge patch of a row: members to replace, null to remove an optional one; never the key. */
export type Patch<R extends Row, K extends keyof R> = { [M in Exclude<keyof R, K>]?: R[M] | null };

/**
 * One page of a listing: rows whose key is above `after` (all when absent) and whose members
 * equal `filters`, at most `limit` of them, and no more once their text (strings and JSON)
 * reaches `maxTextBytes` of UTF-8 (at least one).
 */
export interface PageRequest<R extends Row = Row, K extends keyof R = keyof R> {
  after?: R[K] | undefined;
  limit: number;
  maxTextBytes: number;
  filters?: Partial<R> | undefined;
}

export interface Page<R extends Row = Row> {
  rows: R[];
  /** Cut at `limit` or at the byte bound: rows may follow (the answer's next link). */
  full: boolean;
}

/** A declared table's rows: the same interface on every engine, typed from the document. */
export interface ResourceStore<R extends Row = Row, K extends keyof R = keyof R> {
  /** Resolves only once the row is durably committed. Idempotent on the key. */
  create(row: R): Promise<CreateResult<R>>;
  get(key: R[K]): Promise<R | undefined>;
  /**
   * Rows in ascending key order, cut by key (keyset), so that paging while others write never
   * repeats or skips a row that exists throughout.
   */
  list(page: PageRequest<R, K>): Promise<Page<R>>;
  /** Applies a merge patch; what is stored after, once committed. */
  update(key: R[K], patch: Patch<R, K>): Promise<UpdateResult<R>>;
  /** Resolves once the delete is durably committed: true if a row was deleted. */
  delete(key: R[K]): Promise<boolean>;
}

/** What each engine reads itself. */
export type ResourceReads = Pick<ResourceStore, "get" | "list">;

/** Every table's repository, by name: the engine gives each its reads. */
export function resources(
  tables: readonly Table[],
  run: WritePath["run"],
  readsOf: (table: Table) => ResourceReads,
): Resources {
  return Object.fromEntries(
    tables.map((table) => [table.name, resourceStore(table, run, readsOf(table))]),
  ) as unknown as Resources;
}

/** A table's repository: its writes through the write path, the same on every engine. */
export function resourceStore(
  table: Table,
  run: WritePath["run"],
  reads: ResourceReads,
): ResourceStore {
  const name = table.name;
  const defaulted = table.columns.filter((column) => column.default !== undefined);
  return {
    ...reads,
    create(given) {
      const row = withDefaults(defaulted, given, undefined);
      return run("createRow", { table: name, row }).then((outcome) => created(row, outcome));
    },
    async update(key, given) {
      const patch = withDefaults(defaulted, given, null);
      return updated(patch, await run("updateRow", { table: name, key, patch }));
    },
    async delete(key) {
      return (await run("deleteRow", { table: name, key })).outcome === "deleted";
    },
  };
}

/**
 * The row with each member that has a `default` in the document and is `absent` (missing from a
 * create; null in a patch, which removes it) set to that default, as the migration that added
 * the column set it on the rows stored before.
 */
function withDefaults(defaulted: readonly Column[], row: Row, absent: undefined | null): Row {
  if (defaulted.length === 0) return row;
  const missing = defaulted.filter((column) => row[column.member] === absent);
  if (missing.length === 0) return row;
  const value = (c: Column) => (c.kind === "int64" ? BigInt(c.default as number) : c.default);
  return { ...row, ...Object.fromEntries(missing.map((c) => [c.member, value(c)])) };
}

function created(wanted: Row, outcome: CreateOutcome): CreateResult {
  switch (outcome.outcome) {
    case "created":
      return { kind: "created", row: wanted };
    case "replayed":
      return { kind: "replayed", row: outcome.row };
    case "conflict":
      return { kind: "conflict", existing: outcome.row };
    default:
      return { kind: "unreferenced", member: outcome.member, value: wanted[outcome.member] };
  }
}

function updated(patch: Row, outcome: UpdateOutcome): UpdateResult {
  switch (outcome.outcome) {
    case "updated":
      return { kind: "updated", row: outcome.row };
    case "absent":
      return { kind: "absent" };
    default:
      return { kind: "unreferenced", member: outcome.member, value: patch[outcome.member] };
  }
}

/**
 * A row as an engine gives it (`at(column, index)` writes the expression that picks a column's
 * value out of `source`) as the API types it, each column through its engine's conversion, absent
 * members left out. Written out per table, as ajv and fast-json-stringify write their code: a loop
 * over the columns made reading a page of 100 plants cost 1.12 × code written for plants, this
 * 1.02 × (same process, alternating rounds); member names go in as JSON strings.
 */
export function rowReader<S>(
  table: Table,
  conversions: readonly ((value: never) => unknown)[],
  at: (column: Column, index: number) => string,
): (source: S) => Row {
  const steps = table.columns.map(
    (column, index) =>
      `v = reads[${index}](source[${at(column, index)}] ?? null); if (v !== undefined) row[${JSON.stringify(column.member)}] = v;`,
  );
  const make = new Function(
    "reads",
    `return (source) => { const row = {}; let v; ${steps.join(" ")} return row; };`,
  ) as (reads: readonly ((value: never) => unknown)[]) => (source: S) => Row;
  return make(conversions);
}

/** Whether two values of a column's member are the same: int64s by value, JSON as data. */
export function sameMember(column: Column, a: unknown, b: unknown): boolean {
  if (a === undefined || a === null || b === undefined || b === null) {
    return (a ?? undefined) === (b ?? undefined);
  }
  if (column.kind === "int64") return BigInt(a as bigint) === BigInt(b as bigint);
  if (column.kind === "json") return sameJson(a, b);
  return a === b;
}

/** Whether a stored row holds exactly the members of `row` (a replay of its create). */
export const sameRow = (table: Table, stored: Row, row: Row): boolean =>
  table.columns.every((column) => sameMember(column, stored[column.member], row[column.member]));

/** A page as its rows come, cut at its count or once their text reaches the byte bound. */
export class PageBuilder {
  readonly #rows: Row[] = [];
  #bytes = 0;
  #cut = false;

  constructor(
    private readonly limit: number,
    private readonly maxTextBytes: number,
  ) {}

  /** Adds the row, of `bytes` of text, if it fits; false once the page is full (it is not on it). */
  add(row: Row, bytes: number): boolean {
    if (this.#rows.length > 0 && this.#bytes + bytes > this.maxTextBytes) {
      this.#cut = true;
      return false;
    }
    this.#rows.push(row);
    this.#bytes += bytes;
    return this.#rows.length < this.limit;
  }

  done(): Page {
    return { rows: this.#rows, full: this.#cut || this.#rows.length >= this.limit };
  }
}
