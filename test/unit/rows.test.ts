// A declared table's rows, engine-free (src/store/rows.ts), in this process: a repository's
// writes and defaults on a write path double, how a row is read out of an engine's result, how
// a replay is told from a conflict, and where a page is cut. The SQLite write thread runs its own
// copy of the replay check, so the store suites never reach it in the test's process.
import { describe, expect, it } from "vitest";
import {
  PageBuilder,
  type ResourceReads,
  resourceStore,
  resources,
  rowReader,
  sameMember,
  sameRow,
} from "../../src/store/rows.ts";
import type { Column, ColumnKind, Row, Table } from "../../src/store/tables.ts";
import type { WritePath } from "../../src/store/writes.ts";

const column = (member: string, kind: ColumnKind, more: Partial<Column> = {}): Column => ({
  member,
  name: member,
  kind,
  nullable: true,
  nullIsValue: false,
  ...more,
});
const pots: Table = {
  name: "pots",
  noun: "pot",
  key: "code",
  columns: [
    column("code", "string", { nullable: false }),
    column("size", "int64", { default: 3 }),
    column("colour", "string", { default: "terracotta" }),
    column("glazed", "boolean"),
    column("shape", "json"),
  ],
};

const reads: ResourceReads = {
  get: async (key) => ({ code: key }),
  list: async () => ({ rows: [], full: false }),
};

/** A repository on a write path double that answers every write with `answer`, recording each. */
function repository(answer: unknown, table: Table = pots) {
  const calls: { name: string; args: unknown }[] = [];
  const run = (async (name: string, args: unknown) => {
    calls.push({ name, args });
    return answer;
  }) as WritePath["run"];
  return { store: resourceStore(table, run, reads), calls };
}

describe("a table's repository", () => {
  it("when a create leaves out members with a default, then the row written has them, an int64 as a bigint", async () => {
    const { store, calls } = repository({ outcome: "created" });
    const result = await store.create({ code: "a", glazed: true });
    const row = { code: "a", glazed: true, size: 3n, colour: "terracotta" };
    expect(calls).toEqual([{ name: "createRow", args: { table: "pots", row } }]);
    expect(result).toEqual({ kind: "created", row });
  });

  it("when a create gives every defaulted member, then the row is written as given", async () => {
    const { store, calls } = repository({ outcome: "created" });
    const given = { code: "a", size: 9n, colour: "blue" };
    await store.create(given);
    expect(calls[0]?.args).toEqual({ table: "pots", row: given });
    expect((calls[0]?.args as { row: Row } | undefined)?.row).toBe(given);
  });

  it("when a table has no defaults, then a create writes the very row it was given", async () => {
    const plain: Table = { ...pots, columns: [column("code", "string")] };
    const { store, calls } = repository({ outcome: "created" }, plain);
    const given = { code: "a", extra: undefined };
    await store.create(given);
    expect(calls[0]?.args).toEqual({ table: "pots", row: given });
    expect((calls[0]?.args as { row: Row } | undefined)?.row).toBe(given);
  });

  it("when the key was taken, then the create says replayed or conflict with the row stored", async () => {
    const stored = { code: "a", size: 1n };
    expect(
      await repository({ outcome: "replayed", row: stored }).store.create({ code: "a" }),
    ).toEqual({ kind: "replayed", row: stored });
    expect(
      await repository({ outcome: "conflict", row: stored }).store.create({ code: "a" }),
    ).toEqual({ kind: "conflict", existing: stored });
  });

  it("when a member names no stored row, then the create names that member and the value given", async () => {
    const { store } = repository({ outcome: "unreferenced", member: "colour" });
    expect(await store.create({ code: "a", colour: "red" })).toEqual({
      kind: "unreferenced",
      member: "colour",
      value: "red",
    });
  });

  it("when a patch removes a defaulted member (null), then the member is set to its default", async () => {
    const after = { code: "a", size: 3n };
    const { store, calls } = repository({ outcome: "updated", row: after });
    const result = await store.update("a", { size: null, glazed: null });
    expect(calls).toEqual([
      { name: "updateRow", args: { table: "pots", key: "a", patch: { size: 3n, glazed: null } } },
    ]);
    expect(result).toEqual({ kind: "updated", row: after });
  });

  it("when a patch leaves a defaulted member out, then it stays out of the patch", async () => {
    const { store, calls } = repository({ outcome: "updated", row: {} });
    await store.update("a", { glazed: false });
    expect(calls[0]?.args).toEqual({ table: "pots", key: "a", patch: { glazed: false } });
  });

  it("when an update finds no row or an unstored reference, then it says so, naming the member and value", async () => {
    expect(await repository({ outcome: "absent" }).store.update("a", {})).toEqual({
      kind: "absent",
    });
    const { store } = repository({ outcome: "unreferenced", member: "colour" });
    expect(await store.update("a", { colour: "red" })).toEqual({
      kind: "unreferenced",
      member: "colour",
      value: "red",
    });
  });

  it("when a delete is written, then it is true only if a row was deleted", async () => {
    const deleted = repository({ outcome: "deleted", row: { code: "a" } });
    expect(await deleted.store.delete("a")).toBe(true);
    expect(deleted.calls).toEqual([{ name: "deleteRow", args: { table: "pots", key: "a" } }]);
    expect(await repository({ outcome: "absent" }).store.delete("a")).toBe(false);
  });

  it("when the repository reads, then it reads through the engine's reads, and every table gets one", async () => {
    const other: Table = { ...pots, name: "sheds" };
    const byName = resources([pots, other], (async () => ({})) as WritePath["run"], (table) => ({
      get: async (key) => ({ table: table.name, key }),
      list: reads.list,
    })) as unknown as Record<string, ResourceReads>;
    expect(Object.keys(byName)).toEqual(["pots", "sheds"]);
    expect(await byName["sheds"]?.get("k")).toEqual({ table: "sheds", key: "k" });
  });
});

describe("a row read out of an engine's result", () => {
  const table: Table = {
    name: "t",
    noun: "t",
    key: "id",
    columns: [column("id", "string"), column('say "hi"', "string"), column("n", "int64")],
  };

  it("when columns are read, then each goes through its conversion, a missing value as null, and undefined leaves the member out", () => {
    const seen: unknown[] = [];
    const read = rowReader<unknown[]>(
      table,
      [
        (v: never) => v,
        (v: never) => {
          seen.push(v);
          return v === null ? undefined : `<${v}>`;
        },
        (v: never) => (v === null ? undefined : BigInt(v)),
      ],
      (_column, index) => String(index),
    );
    expect(read(["a", "b", "7"])).toEqual({ id: "a", 'say "hi"': "<b>", n: 7n });
    expect(read(["a"])).toEqual({ id: "a" });
    expect(seen).toEqual(["b", null]);
  });

  it("when the engine names its columns, then each is picked by the expression given", () => {
    const read = rowReader<Record<string, unknown>>(
      table,
      [(v: never) => v, (v: never) => v, (v: never) => v],
      (c) => JSON.stringify(`col_${c.member}`),
    );
    expect(read({ col_id: "x", 'col_say "hi"': "y", col_n: 1 })).toEqual({
      id: "x",
      'say "hi"': "y",
      n: 1,
    });
  });
});

describe("a replay told from a conflict", () => {
  it("when a member is absent or null on either side, then it is the same only if absent or null on both", () => {
    const c = column("x", "string");
    expect(sameMember(c, undefined, null)).toBe(true);
    expect(sameMember(c, null, undefined)).toBe(true);
    expect(sameMember(c, undefined, "a")).toBe(false);
    expect(sameMember(c, "a", null)).toBe(false);
  });

  it("when int64s are compared, then they are the same by value, whatever their JavaScript type", () => {
    const c = column("x", "int64");
    expect(sameMember(c, 5n, 5)).toBe(true);
    expect(sameMember(c, 9007199254740993n, 9007199254740993n)).toBe(true);
    expect(sameMember(c, 5n, 6n)).toBe(false);
    // Absent or null beside a value: different, never a value read as a number.
    expect(sameMember(c, undefined, 0n)).toBe(false);
    expect(sameMember(c, null, 5n)).toBe(false);
    expect(sameMember(c, 5n, undefined)).toBe(false);
    expect(sameMember(c, 0n, null)).toBe(false);
  });

  it("when JSON members are compared, then they are the same as data, members in any order", () => {
    const c = column("x", "json");
    expect(sameMember(c, { a: 1, b: [2] }, { b: [2], a: 1 })).toBe(true);
    expect(sameMember(c, { a: 1 }, { a: 2 })).toBe(false);
  });

  it("when other members are compared, then they are the same only if equal", () => {
    expect(sameMember(column("x", "string"), "a", "a")).toBe(true);
    expect(sameMember(column("x", "string"), "a", "b")).toBe(false);
    expect(sameMember(column("x", "number"), 1, 1.5)).toBe(false);
  });

  it("when rows are compared, then every column must be the same", () => {
    const stored = { code: "a", size: 3n, shape: { round: true } };
    expect(sameRow(pots, stored, { code: "a", size: 3, shape: { round: true } })).toBe(true);
    expect(sameRow(pots, stored, { code: "a", size: 3n })).toBe(false);
    expect(sameRow(pots, stored, { ...stored, glazed: false })).toBe(false);
  });
});

describe("a page cut at its count or its bytes", () => {
  it("when rows reach the limit, then the last one fits and the page is full", () => {
    const page = new PageBuilder(2, 1000);
    expect(page.add({ n: 1 }, 10)).toBe(true);
    expect(page.add({ n: 2 }, 10)).toBe(false);
    expect(page.done()).toEqual({ rows: [{ n: 1 }, { n: 2 }], full: true });
  });

  it("when the rows' text would pass the byte bound, then the row is left off and the page is full", () => {
    const page = new PageBuilder(10, 25);
    expect(page.add({ n: 1 }, 10)).toBe(true);
    expect(page.add({ n: 2 }, 15)).toBe(true);
    expect(page.add({ n: 3 }, 1)).toBe(false);
    expect(page.done()).toEqual({ rows: [{ n: 1 }, { n: 2 }], full: true });
  });

  it("when the first row alone passes the bound, then it is still on the page", () => {
    const page = new PageBuilder(10, 5);
    expect(page.add({ n: 1 }, 50)).toBe(true);
    expect(page.add({ n: 2 }, 1)).toBe(false);
    expect(page.done()).toEqual({ rows: [{ n: 1 }], full: true });
  });

  it("when the rows end before the limit and the bound, then the page is not full", () => {
    const page = new PageBuilder(3, 100);
    page.add({ n: 1 }, 10);
    page.add({ n: 2 }, 10);
    expect(page.done()).toEqual({ rows: [{ n: 1 }, { n: 2 }], full: false });
  });
});
