// PlantStore and TokenStore on an SQLite file (better-sqlite3). Writes go to a thread that
// owns the write connection and commits them in batches (group commit: the write path of
// writes.ts, the thread of sqlite-writer.ts). Reads and tokens use this thread's connection
// (WAL: a read sees the last commit and never waits for a write). Several processes may share
// the file (WAL, busy timeout).
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { newWebhookSecret } from "../webhooks/signature.ts";
import { createFaultLatch } from "./fault-latch.ts";
import { PageBuilder, resultOf, toPlant, toStoredPlant, updatedPlant } from "./rows.ts";
import { configureConnection } from "./sqlite-connection.ts";
import { sqliteStoreError } from "./sqlite-errors.ts";
import { assertSameFile, fileIdentity } from "./sqlite-file.ts";
import { migrateSqlite } from "./sqlite-migrations.ts";
import { createSqliteTokenStore } from "./sqlite-tokens.ts";
import { sqliteWebhookReads } from "./sqlite-webhooks.ts";
import { createSqliteWriter } from "./sqlite-writer.ts";
import {
  type CreateResult,
  type MigrationResult,
  type NewPlant,
  type Plant,
  type Store,
  StoreUnavailableError,
} from "./store.ts";
import { webhookStore } from "./webhooks.ts";
import { createWritePath } from "./writes.ts";

interface Row {
  name: string;
  tag: string | null;
}

/** A page's row as a raw statement gives it: the columns in the order selected. */
type StoredColumns = [id: bigint, name: string, tag: string | null];

/** Opens (creating if need be) and migrates the file, with the settings every write needs. */
export function openSqliteDatabase(path: string): {
  db: Database.Database;
  schema: MigrationResult;
  /** The file opened (sqlite-file.ts), taken just after opening it. */
  identity: string;
} {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  const identity = fileIdentity(path);
  try {
    // WAL is kept in the file; with synchronous=FULL (configureConnection) a commit is on
    // disk before create() resolves.
    db.pragma("journal_mode = WAL");
    configureConnection(db);
    return { db, schema: migrateSqlite(db), identity };
  } catch (error) {
    db.close();
    throw error;
  }
}

// One transaction's worth: enough to share an fsync among every waiting request, small
// enough that a batch commits in a few milliseconds.
const MAX_BATCH = 512;

export function openSqliteStore(path: string): Store {
  const { db, schema, identity } = openSqliteDatabase(path);
  const writer = createSqliteWriter({ path, fileIdentity: identity });
  const faults = createFaultLatch();
  const writes = createWritePath({
    // Watched per batch, not per write: every write of a batch shares its commit's outcome.
    execute: (batch) => faults.watch(() => writer.write(batch)),
    // One batch at the write thread at a time: what arrives while it commits queues here and
    // goes out as the next batch (up to MAX_BATCH), sharing one fsync and the pages it
    // rewrites; with a second batch waiting at the thread the batches were smaller and a create
    // cost about 4.5% more CPU (BENCHMARKS.md, "Group commit").
    maxInFlight: 1,
    maxBatch: MAX_BATCH,
  });

  const select = db.prepare<[bigint], Row>("SELECT name, tag FROM plants WHERE id = ?");
  // Keyset pages on the rowid (the primary key): a range scan from `after`, whatever the size
  // of the table. Ids come back as bigints (safeIntegers), never through a double. Rows come
  // as arrays (raw): better-sqlite3 builds an object row property by property from C++, and
  // a page of 100 took half as long again that way (BENCHMARKS.md, "List pages from raw rows").
  const firstPage = db
    .prepare<[number], StoredColumns>("SELECT id, name, tag FROM plants ORDER BY id LIMIT ?")
    .safeIntegers(true)
    .raw(true);
  const pageAfter = db
    .prepare<[bigint, number], StoredColumns>(
      "SELECT id, name, tag FROM plants WHERE id > ? ORDER BY id LIMIT ?",
    )
    .safeIntegers(true)
    .raw(true);
  const probe = db.prepare("SELECT count(*) FROM sqlite_schema");

  const read = (id: bigint): Plant | undefined => {
    const row = select.get(id);
    return row === undefined ? undefined : toPlant(row);
  };

  return {
    create(plant: NewPlant): Promise<CreateResult> {
      const row = { id: plant.id, name: plant.name, tag: plant.tag ?? null };
      return writes.run("createPlant", row).then((outcome) => resultOf(row, outcome));
    },
    async get(id) {
      return asStoreErrors(() => read(id));
    },
    async list({ after, limit, maxTextBytes }) {
      return asStoreErrors(() => {
        // Row by row, so that rows past the byte bound are never read.
        const rows =
          after === undefined ? firstPage.iterate(limit) : pageAfter.iterate(after, limit);
        const page = new PageBuilder(limit, maxTextBytes);
        for (const [id, name, tag] of rows) {
          if (!page.add(toStoredPlant({ id, name, tag }))) break;
        }
        return page.done();
      });
    },
    async update(id, patch) {
      return updatedPlant(await writes.run("updatePlant", { id, ...patch }));
    },
    async delete(id) {
      return (await writes.run("deletePlant", { id })).outcome === "deleted";
    },
    async ping() {
      try {
        probe.get();
        assertSameFile(path, identity);
        // The write thread too: a store that can read but not write is not ready.
        await writer.ready();
        await faults.check(() => writer.probe());
      } catch (error) {
        if (error instanceof StoreUnavailableError) throw error;
        throw new StoreUnavailableError(`the SQLite file cannot be used: ${String(error)}`, {
          cause: error,
        });
      }
    },
    describe() {
      const journal = String(db.pragma("journal_mode", { simple: true }));
      const synchronous = SYNCHRONOUS[Number(db.pragma("synchronous", { simple: true }))];
      const checkpoint = Number(db.pragma("wal_autocheckpoint", { simple: true }));
      return `sqlite ${path} (schema version ${schema.to}, journal_mode=${journal}, synchronous=${synchronous ?? "unknown"}, wal_autocheckpoint=${checkpoint})`;
    },
    observeWrites: (observer) => writes.observe(observer),
    async close() {
      await writes.drain();
      await writer.close();
      db.close();
    },
    tokens: createSqliteTokenStore(db, asStoreErrors),
    webhooks: {
      ...webhookStore(
        (name, args) => writes.run(name, args),
        newWebhookSecret,
        sqliteWebhookReads(db, asStoreErrors),
      ),
    },
  };
}

/** Runs a statement, rethrowing a locked file or a fault of the file as the store's errors. */
export function asStoreErrors<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    const mapped = sqliteStoreError((error as { code?: unknown }).code, String(error));
    if (mapped !== undefined) throw Object.assign(mapped, { cause: error });
    throw error;
  }
}

const SYNCHRONOUS = ["off", "normal", "full", "extra"];
