// A document of the tests' own (test/fixtures/declared-tables.yaml): tables with a member of
// every kind the store keeps, references, filters and an event, and stores on every engine whose
// tables its generated DDL made, as `npm run generate` would have it made.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Document } from "openapi-backend";
import postgres from "postgres";
import { loadConfig } from "../../src/config/config.ts";
import { dereference } from "../../src/openapi/backend.ts";
import { apiData } from "../../src/openapi/data.ts";
import { parseYaml } from "../../src/openapi/document.ts";
import { tableChanges } from "../../src/store/migrations/diff.ts";
import { postgresSteps } from "../../src/store/postgres/ddl.ts";
import { openPostgresStore } from "../../src/store/postgres/store.ts";
import { sqliteStatements } from "../../src/store/sqlite/ddl.ts";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import { createTestDatabase } from "./postgres.ts";
import { type StoreEngine, type TestStore, trackStores } from "./stores.ts";

const path = new URL("../fixtures/declared-tables.yaml", import.meta.url);

/** The fixture as parsed (its $refs as written). */
export const FIXTURE_DOCUMENT = parseYaml(readFileSync(path, "utf8")) as Document;

/** A fresh copy of the fixture, for what dereferences it in place. */
export const fixtureDocument = (): Document => structuredClone(FIXTURE_DOCUMENT);

export const FIXTURE_DATA = apiData(await dereference(fixtureDocument()));

const changes = tableChanges([], FIXTURE_DATA.tables);

/** A store on a fresh database of the engine holding the fixture's tables. */
export async function declaredStore(engine: StoreEngine): Promise<TestStore> {
  if (engine.name === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "plantstore-declared-"));
    const file = join(dir, "declared.db");
    const db = new Database(file);
    for (const statement of changes.flatMap(sqliteStatements)) db.exec(statement);
    db.close();
    return trackStores(
      `sqlite:${file}`,
      async (options) => openSqliteStore(file, { ...options, data: FIXTURE_DATA }),
      async () => rmSync(dir, { recursive: true, force: true }),
    );
  }
  const created = await createTestDatabase();
  const sql = postgres(created.url, { max: 1, onnotice: () => undefined });
  try {
    for (const step of changes.flatMap(postgresSteps)) await sql.unsafe(step.sql);
  } finally {
    await sql.end();
  }
  const { database } = loadConfig({ DATABASE_URL: created.url });
  if (database.engine !== "postgres") throw new Error("not a PostgreSQL URL");
  return trackStores(
    created.url,
    (options) => openPostgresStore(database, { ...options, data: FIXTURE_DATA }),
    created.drop,
  );
}
