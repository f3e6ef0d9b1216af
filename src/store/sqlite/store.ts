// The store on an SQLite file (better-sqlite3): a repository per resource (rows.ts for every
// declared table, tokens.ts, webhooks.ts) over one database. Writes go to a thread that
// owns the write connection and commits them in batches (group commit: the write path of
// writes.ts, the thread of writer.ts). Every read uses this thread's connection
// (WAL: a read sees the last commit and never waits for a write). Several processes may share
// the file (WAL, busy timeout).

import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { createFaultLatch } from "../fault-latch.ts";
import { GENERATED_MIGRATIONS } from "../migrations/index.ts";
import type { GeneratedMigration } from "../migrations/migration.ts";
import { resources } from "../rows.ts";
import {
  type MigrationResult,
  type Store,
  type StoreOptions,
  StoreUnavailableError,
} from "../store.ts";
import { webhookStore } from "../webhooks.ts";
import { createWritePath } from "../writes.ts";
import { configureConnection } from "./connection.ts";
import { sqliteStoreError } from "./errors.ts";
import { assertSameFile, fileIdentity } from "./file.ts";
import { migrateSqlite } from "./migrations.ts";
import { sqliteRowReads } from "./rows.ts";
import { createSqliteTokenStore } from "./tokens.ts";
import { sqliteWebhookReads } from "./webhooks.ts";
import { createSqliteWriter } from "./writer.ts";

/** Opens (creating if need be) and migrates the file, with the settings every write needs. */
export function openSqliteDatabase(
  path: string,
  migrations: readonly GeneratedMigration[] = GENERATED_MIGRATIONS,
): {
  db: Database.Database;
  schema: MigrationResult;
  /** The file opened (file.ts), taken just after opening it. */
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
    return { db, schema: migrateSqlite(db, undefined, migrations), identity };
  } catch (error) {
    db.close();
    throw error;
  }
}

// One transaction's worth: enough to share an fsync among every waiting request, small
// enough that a batch commits in a few milliseconds.
const MAX_BATCH = 512;

export function openSqliteStore(path: string, options: StoreOptions): Store {
  const { data } = options;
  const { db, schema, identity } = openSqliteDatabase(path, options.migrations);
  const writer = createSqliteWriter({ path, fileIdentity: identity, data });
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
    tables: data.tables,
  });

  // The write path's own function, handed on as it is (it uses no `this`).
  const { run } = writes;
  const probe = db.prepare("SELECT count(*) FROM sqlite_schema");

  return {
    resources: resources(data.tables, run, (table) => sqliteRowReads(db, table, asStoreErrors)),
    tokens: createSqliteTokenStore(db, asStoreErrors),
    webhooks: webhookStore(
      run,
      sqliteWebhookReads(db, asStoreErrors),
      data.events.map((event) => event.type),
      options.clock,
    ),
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
