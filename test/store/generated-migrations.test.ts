// A migration generated from the document, run by each engine on a database of the release
// before it: every row is kept, the new member reads back absent and can be stored and filtered
// on, each migration is recorded once, a database that recorded one this build does not know
// is refused, and on PostgreSQL a step already made or an index build that failed is finished.
import Database from "better-sqlite3";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { tableChanges } from "../../src/store/migrations/diff.ts";
import type { GeneratedMigration } from "../../src/store/migrations/migration.ts";
import { postgresSteps } from "../../src/store/postgres/ddl.ts";
import { generatedRun, migratePostgresGenerated } from "../../src/store/postgres/migrations.ts";
import { openPostgresStore } from "../../src/store/postgres/store.ts";
import type { ResourceStore } from "../../src/store/rows.ts";
import { sqliteStatements } from "../../src/store/sqlite/ddl.ts";
import { migrateSqlite } from "../../src/store/sqlite/migrations.ts";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import { SchemaTooNewError, type Store } from "../../src/store/store.ts";
import type { Column, DataDeclaration, Table } from "../../src/store/tables.ts";
import { DATA, storeEngines, type TestStore } from "../helpers/stores.ts";

const plants = DATA.tables.find((table) => table.name === "plants") as Table;
const species: Column = {
  member: "species",
  name: "species",
  kind: "string",
  nullable: true,
  nullIsValue: false,
  indexed: true,
};
const withSpecies: DataDeclaration = {
  ...DATA,
  tables: DATA.tables.map((t) => (t === plants ? { ...t, columns: [...t.columns, species] } : t)),
};
const changes = tableChanges(DATA.tables, withSpecies.tables);
const MIGRATION: GeneratedMigration = {
  id: "0001-plants-species",
  summary: "adds plants.species, indexes plants.species.",
  sqlite: changes.flatMap(sqliteStatements),
  postgres: changes.flatMap(postgresSteps),
};

/** Runs `generated` on the engine's database the way a start-up would. */
async function migrate(db: TestStore, generated: readonly GeneratedMigration[]): Promise<string[]> {
  if (db.url.startsWith("sqlite:")) {
    const file = new Database(db.url.slice("sqlite:".length));
    try {
      return [...migrateSqlite(file, undefined, generated).generated];
    } finally {
      file.close();
    }
  }
  const { database } = loadConfig({ DATABASE_URL: db.url });
  if (database.engine !== "postgres") throw new Error("not PostgreSQL");
  const sql = postgres(db.url, {
    max: 1,
    onnotice: () => undefined,
    types: { bigint: postgres.BigInt },
  });
  try {
    return await migratePostgresGenerated(sql, { ...generatedRun(database, false), generated });
  } finally {
    await sql.end();
  }
}

/** The store on the same database with the document that declares species. */
async function openWithSpecies(db: TestStore): Promise<Store> {
  const options = { data: withSpecies, migrations: [MIGRATION] };
  if (db.url.startsWith("sqlite:")) return openSqliteStore(db.url.slice("sqlite:".length), options);
  const { database } = loadConfig({ DATABASE_URL: db.url });
  if (database.engine !== "postgres") throw new Error("not PostgreSQL");
  return openPostgresStore(database, options);
}

describe.each(storeEngines)("generated migrations: $name", (engine) => {
  const opened: TestStore[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const db of opened.splice(0)) await db.destroy();
  });
  const fresh = async () => {
    const db = await engine.create();
    opened.push(db);
    return db;
  };

  it("when a new indexed member's migration runs on a database of the release before, then every plant is kept, the member reads absent, and it is stored and filtered on", async () => {
    const db = await fresh();
    const before = Array.from({ length: 200 }, (_, n) => ({ id: BigInt(n) * 7n, name: `p${n}` }));
    for (const plant of before) await db.store.resources.plants.create(plant);
    await db.store.close();

    expect(await migrate(db, [MIGRATION])).toEqual([MIGRATION.id]);
    expect(await migrate(db, [MIGRATION])).toEqual([]);

    const store = await openWithSpecies(db);
    stores.push(store);
    const rows = store.resources.plants as unknown as ResourceStore;
    for (const plant of before.filter((_, n) => n % 50 === 0))
      expect(await rows.get(plant.id)).toEqual(plant);
    expect((await rows.list({ limit: 1000, maxTextBytes: 1e6 })).rows).toHaveLength(200);
    await rows.create({ id: 1n, name: "Monstera", species: "M. deliciosa" });
    await rows.update(7n, { species: "M. deliciosa" });
    const filtered = await rows.list({
      limit: 10,
      maxTextBytes: 1e6,
      filters: { species: "M. deliciosa" },
    });
    expect(filtered.rows).toEqual([
      { id: 1n, name: "Monstera", species: "M. deliciosa" },
      { id: 7n, name: "p1", species: "M. deliciosa" },
    ]);
  });

  it("when the database recorded a generated migration this build does not know, then opening it is refused", async () => {
    const db = await fresh();
    await db.store.close();
    await migrate(db, [MIGRATION]);
    await expect(migrate(db, [])).rejects.toThrow(SchemaTooNewError);
  });
});

describe.skipIf(!storeEngines.some((e) => e.name === "postgres"))(
  "generated migrations: postgres steps",
  () => {
    const postgresEngine = storeEngines.find((e) => e.name === "postgres");
    let db: TestStore | undefined;
    afterEach(async () => {
      await db?.destroy();
    });

    it("when a migration stopped half-way runs again, then the steps it made are taken as done, and an index a failed concurrent build left invalid is built again", async () => {
      db = await postgresEngine?.create();
      if (db === undefined) return;
      for (let n = 0n; n < 20n; n++)
        await db.store.resources.plants.create({ id: n, name: "same" });
      await db.store.close();
      const admin = postgres(db.url, { max: 1, onnotice: () => undefined });
      try {
        // The column already added, and a unique build over duplicate names: it fails and leaves
        // an invalid index under the name the migration's index takes.
        await admin.unsafe("ALTER TABLE plants ADD COLUMN species TEXT");
        await expect(
          admin.unsafe("CREATE UNIQUE INDEX CONCURRENTLY plants_species ON plants (name)"),
        ).rejects.toThrow();
        const [invalid] = await admin<{ valid: boolean }[]>`
        SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = 'plants_species'::regclass`;
        expect(invalid?.valid).toBe(false);
        expect(await migrate(db, [MIGRATION])).toEqual([MIGRATION.id]);
        const [index] = await admin<{ valid: boolean; definition: string }[]>`
        SELECT i.indisvalid AS valid, pg_get_indexdef(i.indexrelid) AS definition
        FROM pg_index AS i WHERE i.indexrelid = 'plants_species'::regclass`;
        expect(index).toEqual({
          valid: true,
          definition: "CREATE INDEX plants_species ON public.plants USING btree (species, id)",
        });
      } finally {
        await admin.end();
      }
    });
  },
);
