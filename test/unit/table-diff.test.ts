// What `npm run generate` makes of a change to the document's tables (src/store/migrations/
// diff.ts): what adds to the data becomes each engine's statements; what would lose or rewrite
// data is refused with a sentence saying what to write by hand.
import { describe, expect, it } from "vitest";
import { migrationOutputs } from "../../scripts/migration.ts";
import { dereference } from "../../src/openapi/backend.ts";
import { loadDocument } from "../../src/openapi/document.ts";
import { DestructiveChangeError, tableChanges } from "../../src/store/migrations/diff.ts";
import { GENERATED_MIGRATIONS } from "../../src/store/migrations/index.ts";
import type { GeneratedMigration } from "../../src/store/migrations/migration.ts";
import { checkMigrations, snapshotText } from "../../src/store/migrations/snapshot.ts";
import { postgresSteps } from "../../src/store/postgres/ddl.ts";
import { sqliteStatements } from "../../src/store/sqlite/ddl.ts";
import type { Column, Table } from "../../src/store/tables.ts";
import { DATA } from "../helpers/stores.ts";

const plants = DATA.tables.find((table) => table.name === "plants") as Table;
const withColumn = (column: Column): Table => ({ ...plants, columns: [...plants.columns, column] });
const species: Column = {
  member: "species",
  name: "species",
  kind: "string",
  nullable: true,
  nullIsValue: false,
  indexed: true,
};

/** The committed document without the member tag, dereferenced. */
async function withoutTag(): Promise<unknown> {
  const document = loadDocument() as unknown as {
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  };
  // From the stored schema and from every body that names it: a member no longer declared.
  delete document.components.schemas["Plant"]?.properties?.["tag"];
  delete document.components.schemas["PlantPatch"]?.properties?.["tag"];
  return dereference(document as never);
}

describe("table changes", () => {
  it("when the document's tables are those of the snapshot, then nothing is to do", () => {
    expect(tableChanges(DATA.tables, DATA.tables)).toEqual([]);
  });

  it("when an optional indexed member is added, then a nullable column and an index on it and the key, built concurrently on PostgreSQL", () => {
    const changes = tableChanges([plants], [withColumn(species)]);
    expect(changes.flatMap(sqliteStatements)).toEqual([
      'ALTER TABLE "plants" ADD COLUMN "species" TEXT',
      'CREATE INDEX "plants_species" ON "plants" ("species", "id")',
    ]);
    expect(changes.flatMap(postgresSteps)).toEqual([
      { sql: 'ALTER TABLE "plants" ADD COLUMN IF NOT EXISTS "species" TEXT' },
      {
        sql: 'CREATE INDEX CONCURRENTLY IF NOT EXISTS "plants_species" ON "plants" ("species", "id")',
        concurrently: true,
      },
    ]);
  });

  it("when a required member is added with a default, then rows stored before get it; a reference is added NOT VALID, then validated", () => {
    const owner: Table = {
      name: "owners",
      noun: "owner",
      key: "id",
      columns: [{ member: "id", name: "id", kind: "int64", nullable: false, nullIsValue: false }],
    };
    const changes = tableChanges(
      [plants, owner],
      [
        withColumn({
          member: "potSize",
          name: "pot_size",
          kind: "int32",
          nullable: false,
          nullIsValue: false,
          default: 3,
        }),
        owner,
      ].map((table) =>
        table.name === "plants"
          ? {
              ...table,
              columns: [
                ...table.columns,
                {
                  member: "ownerId",
                  name: "owner_id",
                  kind: "int64",
                  nullable: true,
                  nullIsValue: false,
                  references: "owners",
                } as Column,
              ],
            }
          : table,
      ),
    );
    expect(changes.flatMap(sqliteStatements)).toEqual([
      'ALTER TABLE "plants" ADD COLUMN "pot_size" INTEGER NOT NULL DEFAULT 3',
      'ALTER TABLE "plants" ADD COLUMN "owner_id" INTEGER REFERENCES "owners"',
    ]);
    expect(changes.flatMap(postgresSteps).map((step) => step.sql)).toEqual([
      'ALTER TABLE "plants" ADD COLUMN IF NOT EXISTS "pot_size" INTEGER NOT NULL DEFAULT 3',
      'ALTER TABLE "plants" ADD COLUMN IF NOT EXISTS "owner_id" BIGINT',
      'ALTER TABLE "plants" ADD CONSTRAINT "plants_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners" NOT VALID',
      'ALTER TABLE "plants" VALIDATE CONSTRAINT "plants_owner_id_fkey"',
    ]);
  });

  const tag = plants.columns.find((column) => column.member === "tag") as Column;
  it.each([
    [
      "a member removed",
      [{ ...plants, columns: plants.columns.filter((c) => c !== tag) }],
      /plants\.tag is no longer declared/,
    ],
    [
      "a member renamed",
      [
        {
          ...plants,
          columns: plants.columns.map((c) =>
            c === tag ? { ...c, member: "label", name: "label" } : c,
          ),
        },
      ],
      /plants\.tag is no longer declared.*a rename is a removal and an addition/,
    ],
    [
      "a type changed",
      [
        {
          ...plants,
          columns: plants.columns.map((c) => (c === tag ? { ...c, kind: "int64" as const } : c)),
        },
      ],
      /plants\.tag changed type from string to int64/,
    ],
    [
      "an optional member made required",
      [
        {
          ...plants,
          columns: plants.columns.map((c) => (c === tag ? { ...c, nullable: false } : c)),
        },
      ],
      /plants\.tag changed between required, optional and nullable/,
    ],
    [
      "a new required member without a default",
      [withColumn({ ...species, nullable: false })],
      /plants\.species is new and required/,
    ],
    [
      "a lower maxLength",
      [
        {
          ...plants,
          columns: plants.columns.map((c) => (c === tag ? { ...c, maxLength: 10 } : c)),
        },
      ],
      /lower maxLength/,
    ],
    ["the key changed", [{ ...plants, key: "name" }], /the key of plants changed/],
    ["a table removed", [], /the table plants is no longer declared/],
  ] as const)(
    "when the document has %s, then generate refuses it, saying what to write by hand",
    (_what, after, sentence) => {
      expect(() => tableChanges([plants], after as unknown as Table[])).toThrow(
        DestructiveChangeError,
      );
      expect(() => tableChanges([plants], after as unknown as Table[])).toThrow(sentence);
      expect(() => tableChanges([plants], after as unknown as Table[])).toThrow(
        /write that migration by hand/,
      );
    },
  );

  it("when the YAML drops a stored member, then generate's migration refuses it against the committed snapshot", async () => {
    await expect(async () => migrationOutputs(await withoutTag())).rejects.toThrow(
      /plants\.tag is no longer declared, and its values would be lost/,
    );
  });

  it("when the YAML drops a stored member and generate runs with --by-hand, then it writes the snapshot and a migration to complete, with what is to do", async () => {
    const outputs = migrationOutputs(await withoutTag(), "drop-plants-tag");
    const file = outputs.find((output) => /\/\d{4}-drop-plants-tag\.ts$/.test(output.path));
    expect(file?.rendered).toMatch(/\/\/ To complete by hand/);
    const migration = JSON.parse(
      /export const migration: GeneratedMigration = (\{[\s\S]*\});/.exec(
        file?.rendered ?? "",
      )?.[1] ?? "null",
    ) as GeneratedMigration;
    expect(migration.todo).toEqual([
      expect.stringMatching(/^plants\.tag is no longer declared, and its values would be lost/),
    ]);
    expect([migration.sqlite, migration.postgres]).toEqual([[], []]);
    const snapshot = outputs.find((output) => output.path.endsWith("tables.json"))?.rendered;
    expect(snapshot).not.toMatch(/"member": "tag"/);
    expect(outputs.some((output) => output.path.endsWith("/index.ts"))).toBe(true);
  });

  it("when --by-hand is given and every change can be made safely, then generate refuses it: there is nothing to write by hand", async () => {
    await expect(async () =>
      migrationOutputs(await dereference(loadDocument()), "nothing"),
    ).rejects.toThrow(
      /--by-hand: every change the document makes to its tables can be made safely/,
    );
  });

  it("when a migration written by hand still has its todo, then the build refuses the document, naming it; once deleted, it passes", () => {
    const open: GeneratedMigration = {
      id: "0099-drop-plants-tag",
      summary: "by hand",
      sqlite: [],
      postgres: [],
      todo: ["plants.tag is no longer declared"],
    };
    const snapshot = snapshotText(DATA.tables);
    expect(() => checkMigrations(DATA.tables, snapshot, [...GENERATED_MIGRATIONS, open])).toThrow(
      /0099-drop-plants-tag\.ts is to be completed by hand: write its statements for plants\.tag is no longer declared/,
    );
    const { todo: _done, ...completed } = open;
    expect(() =>
      checkMigrations(DATA.tables, snapshot, [...GENERATED_MIGRATIONS, completed]),
    ).not.toThrow();
  });

  it("when the document is as committed, then generate has no migration to write", async () => {
    expect(migrationOutputs(await dereference(loadDocument()))).toEqual([]);
  });
});
