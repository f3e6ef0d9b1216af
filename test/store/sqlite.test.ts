import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open.ts";
import { WAL_CHECKPOINT_PAGES } from "../../src/store/sqlite/connection.ts";
import { migrateSqlite, SQLITE_SCHEMA_VERSION } from "../../src/store/sqlite/migrations.ts";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import { StoreUnavailableError } from "../../src/store/store.ts";
import {
  expectUpgradedDelivery,
  expectUpgradedOutbox,
  expectUpgradedSubscriptions,
  V5_ROWS,
  V6_ROWS,
  V7_ROWS,
} from "../helpers/outbox-upgrade.ts";
import { expectRelease6Kept, RELEASE_6_FIXTURES } from "../helpers/release-upgrade.ts";
import { DATA, sqliteEngine } from "../helpers/stores.ts";
import { storedEvents } from "../helpers/token-rows.ts";
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
    const store = openSqliteStore(path, { data: DATA });
    await store.resources.plants.create({ id: 1n, name: "x" });
    await store.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma("user_version", { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("when the write thread cannot prepare its statements, then ping says unavailable and creates fail as faults", async () => {
    const path = tempPath("plants.db");
    const store = openSqliteStore(path, { data: DATA });
    // Broken after this thread opened, before the write thread starts (on first use).
    const saboteur = new Database(path);
    saboteur.exec("DROP TABLE plants");
    saboteur.close();
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    const failed = await store.resources.plants
      .create({ id: 1n, name: "x" })
      .catch((error: Error) => error);
    expect(String(failed)).toMatch(/no such table: plants/);
    expect(failed).not.toBeInstanceOf(StoreUnavailableError);
    await store.close();
    // Opened afresh, such a file is refused at once.
    await expect(
      openStore({ engine: "sqlite", path }, { startupTimeoutMs: 0, data: DATA }),
    ).rejects.toThrow(/no such table: plants/);
  });

  it("when the store opens, then the first ping starts the write thread and later ones find it ready", async () => {
    const store = openSqliteStore(tempPath("plants.db"), { data: DATA });
    await expect(store.ping()).resolves.toBeUndefined();
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it("when the store is open, then its own connection commits with WAL and synchronous=FULL", async () => {
    const path = tempPath("plants.db");
    const store = openSqliteStore(path, { data: DATA });
    expect(store.describe()).toBe(
      `sqlite ${path} (schema version ${SQLITE_SCHEMA_VERSION}, journal_mode=wal, synchronous=full, wal_autocheckpoint=${WAL_CHECKPOINT_PAGES})`,
    );
    await store.close();
  });

  it("when batches take the WAL past SQLite's default 1,000 pages, then the write thread does not checkpoint until its own limit", async () => {
    const path = tempPath("plants.db");
    await openSqliteStore(path, { data: DATA }).close();
    // Plants spread over many pages, so that each batch of scattered ids rewrites hundreds.
    const filler = new Database(path);
    const insert = filler.prepare("INSERT INTO plants (id, name) VALUES (?, ?)");
    filler.transaction(() => {
      for (let id = 0; id < 100_000; id++) insert.run(id * 10, `filler plant number ${id}`);
    })();
    filler.pragma("wal_checkpoint(TRUNCATE)");
    filler.close();
    const store = openSqliteStore(path, { data: DATA });
    // Five batches of 400 ids scattered among the filler, each about 425 pages (2,133 in all):
    // with a limit of 1,000, the third would checkpoint and the fourth start the WAL over,
    // leaving about 800 (822 when the limit was set back to 1,000 to check this test).
    for (let batch = 0; batch < 5; batch++) {
      await Promise.all(
        Array.from({ length: 400 }, (_, at) => {
          const slot = (at * 2_503 + batch * 7) % 100_000;
          return store.resources.plants.create({ id: BigInt(slot * 10 + 1), name: "scattered" });
        }),
      );
    }
    // A passive checkpoint says how many pages the WAL holds (a read-only connection cannot run one).
    const reader = new Database(path);
    const [frames] = reader.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
    reader.close();
    await store.close();
    expect(frames?.log).toBeGreaterThan(1_000);
    expect(frames?.log).toBeLessThan(WAL_CHECKPOINT_PAGES);
  });

  it("when another process holds the write lock past the busy timeout, then a create is unavailable and nothing is stored", async () => {
    const path = tempPath("plants.db");
    const store = openSqliteStore(path, { data: DATA });
    const holder = new Database(path);
    holder.exec("BEGIN IMMEDIATE");
    await expect(store.resources.plants.create({ id: 7n, name: "blocked" })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    holder.exec("ROLLBACK");
    holder.close();
    expect(await store.resources.plants.get(7n)).toBeUndefined();
    await store.close();
  });

  it("when a version-1 file is opened, then it gains the token table and keeps its plants", async () => {
    const path = tempPath("plants.db");
    const old = new Database(path);
    old.exec("CREATE TABLE plants (id INTEGER PRIMARY KEY, name TEXT NOT NULL, tag TEXT) STRICT");
    old.exec("INSERT INTO plants (id, name) VALUES (5, 'Kept')");
    old.pragma("user_version = 1");
    old.close();
    const store = openSqliteStore(path, { data: DATA });
    expect(await store.resources.plants.get(5n)).toEqual({ id: 5n, name: "Kept" });
    expect(await store.tokens.list()).toEqual([]);
    expect(store.describe()).toContain(`schema version ${SQLITE_SCHEMA_VERSION}`);
    await store.close();
  });

  it("when a version-5 file holds pending deliveries, then each becomes an event of its own and is still sent", async () => {
    const path = tempPath("plants.db");
    const old = new Database(path);
    old.pragma("journal_mode = WAL");
    migrateSqlite(old, 5);
    const { endpoint, delivery, plantId, body, at } = V5_ROWS;
    old
      .prepare(
        "INSERT INTO webhook_endpoints (id, url, secret, created_at) VALUES (?, 'https://a.example/h', 'whsec_x', ?)",
      )
      .run(endpoint, at);
    old
      .prepare(
        `INSERT INTO webhook_deliveries (id, endpoint_id, plant_id, body, status, attempts,
           next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
      )
      .run(delivery, endpoint, plantId, body, at, at, at);
    old.close();
    const store = openSqliteStore(path, { data: DATA });
    try {
      await expectUpgradedDelivery(store);
    } finally {
      await store.close();
    }
  });

  it("when a version-6 file holds events, then the endpoint gets those recorded after its registration, and a leftover event goes", async () => {
    const path = tempPath("plants.db");
    const old = new Database(path);
    old.pragma("journal_mode = WAL");
    migrateSqlite(old, 6);
    const { endpoint, registeredAt, events, delivery } = V6_ROWS;
    old
      .prepare(
        "INSERT INTO webhook_endpoints (id, url, secret, created_at) VALUES (?, 'https://a.example/h', 'whsec_x', ?)",
      )
      .run(endpoint, registeredAt);
    const event = old.prepare(
      "INSERT INTO webhook_events (id, type, subject_id, body, created_at, fanned_out) VALUES (?, 'newPlant', ?, '{}', ?, ?)",
    );
    for (const e of events) event.run(e.id, e.subject, e.at, e.fannedOut ? 1 : 0);
    old
      .prepare(
        `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, attempts,
           next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)`,
      )
      .run(delivery.id, endpoint, delivery.event, registeredAt, registeredAt, registeredAt);
    old.close();
    const store = openSqliteStore(path, { data: DATA });
    try {
      await expectUpgradedOutbox(store, () => storedEvents(`sqlite:${path}`));
    } finally {
      await store.close();
    }
  });

  it("when a version-7 file holds an endpoint, then it keeps exactly the event it was sent, and a later one only once it subscribes", async () => {
    const path = tempPath("plants.db");
    const old = new Database(path);
    old.pragma("journal_mode = WAL");
    migrateSqlite(old, 7);
    old
      .prepare(
        `INSERT INTO webhook_endpoints (id, url, secret, created_at, first_event_id)
         VALUES (?, 'https://a.example/h', 'whsec_x', ?, 1)`,
      )
      .run(V7_ROWS.endpoint, V7_ROWS.registeredAt);
    old.close();
    const store = openSqliteStore(path, { data: DATA });
    try {
      await expectUpgradedSubscriptions(store);
    } finally {
      await store.close();
    }
  });

  it("when a file the release before declared tables made is opened, then every row reads back as stored and new writes and webhooks work", async () => {
    const path = tempPath("plants.db");
    copyFileSync(new URL("plants.db", RELEASE_6_FIXTURES), path);
    const store = openSqliteStore(path, { data: DATA });
    try {
      expect(store.describe()).toContain(`schema version ${SQLITE_SCHEMA_VERSION}`);
      await expectRelease6Kept(store, "sqlite");
    } finally {
      await store.close();
    }
  });

  it("when the schema is newer than this version knows, then opening is refused", async () => {
    const path = tempPath("plants.db");
    await openSqliteStore(path, { data: DATA }).close();
    const db = new Database(path);
    db.pragma("user_version = 99");
    db.close();
    expect(() => openSqliteStore(path, { data: DATA })).toThrow(
      /schema is version 99, newer than this plantstore/,
    );
  });
});
