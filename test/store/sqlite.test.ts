import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { StoreUnavailableError } from "../../src/store/store.ts";
import { sqliteEngine } from "../helpers/stores.ts";
import { describeStoreContract } from "./store-contract.ts";

describeStoreContract(sqliteEngine);

describe("SQLite specifics", () => {
  const dirs: string[] = [];
  const tempPath = (...parts: string[]): string => {
    const dir = mkdtempSync(join(tmpdir(), "plantstore-sqlite-"));
    dirs.push(dir);
    return join(dir, ...parts);
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("when the folder does not exist, then it and the migrated file are created", async () => {
    const path = tempPath("nested", "deeper", "plants.db");
    const store = openSqliteStore(path);
    await store.create({ id: 1n, name: "x" });
    await store.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma("user_version", { simple: true })).toBe(3);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("when the write thread cannot prepare its statements, then ping says unavailable and creates fail as faults", async () => {
    const path = tempPath("plants.db");
    const store = openSqliteStore(path);
    // Broken after this thread opened, before the write thread starts (on first use).
    const saboteur = new Database(path);
    saboteur.exec("DROP TABLE plants");
    saboteur.close();
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    const failed = await store.create({ id: 1n, name: "x" }).catch((error: Error) => error);
    expect(String(failed)).toMatch(/no such table: plants/);
    expect(failed).not.toBeInstanceOf(StoreUnavailableError);
    await store.close();
    // Opened afresh, such a file is refused at once.
    await expect(openStore({ engine: "sqlite", path }, { startupTimeoutMs: 0 })).rejects.toThrow(
      /no such table: plants/,
    );
  });

  it("when the store opens, then the first ping starts the write thread and later ones find it ready", async () => {
    const store = openSqliteStore(tempPath("plants.db"));
    await expect(store.ping()).resolves.toBeUndefined();
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it("when the store is open, then its own connection commits with WAL and synchronous=FULL", async () => {
    const path = tempPath("plants.db");
    const store = openSqliteStore(path);
    expect(store.describe()).toBe(
      `sqlite ${path} (schema version 3, journal_mode=wal, synchronous=full)`,
    );
    await store.close();
  });

  it("when another process holds the write lock past the busy timeout, then a create is unavailable and nothing is stored", async () => {
    const path = tempPath("plants.db");
    const store = openSqliteStore(path);
    const holder = new Database(path);
    holder.exec("BEGIN IMMEDIATE");
    await expect(store.create({ id: 7n, name: "blocked" })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    holder.exec("ROLLBACK");
    holder.close();
    expect(await store.get(7n)).toBeUndefined();
    await store.close();
  });

  it("when a version-1 file is opened, then it gains the token table and keeps its plants", async () => {
    const path = tempPath("plants.db");
    const old = new Database(path);
    old.exec("CREATE TABLE plants (id INTEGER PRIMARY KEY, name TEXT NOT NULL, tag TEXT) STRICT");
    old.exec("INSERT INTO plants (id, name) VALUES (5, 'Kept')");
    old.pragma("user_version = 1");
    old.close();
    const store = openSqliteStore(path);
    expect(await store.get(5n)).toEqual({ name: "Kept" });
    expect(await store.tokens.list()).toEqual([]);
    expect(store.describe()).toContain("schema version 3");
    await store.close();
  });

  it("when the schema is newer than this version knows, then opening is refused", () => {
    const path = tempPath("plants.db");
    openSqliteStore(path).close();
    const db = new Database(path);
    db.pragma("user_version = 99");
    db.close();
    expect(() => openSqliteStore(path)).toThrow(/schema is version 99, newer than this plantstore/);
  });
});
