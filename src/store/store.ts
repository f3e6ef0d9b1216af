// The storage interface every engine implements; handlers depend on nothing else.
import type { tables } from "../../generated/plants.ts";
import type { GeneratedMigration } from "./migrations/migration.ts";
import type { ResourceStore } from "./rows.ts";
import type { DataDeclaration } from "./tables.ts";
import type { TokenStore } from "./tokens.ts";
import type { WebhookStore } from "./webhooks.ts";
import type { WriteObserver } from "./writes.ts";

/** Every declared table's repository, by table name, typed from the document (generated/plants.ts). */
export type Resources = {
  readonly [T in keyof tables]: ResourceStore<tables[T]["row"], tables[T]["key"]>;
};

/** How a store is opened, beside where. */
export interface StoreOptions {
  /** The document's tables and events (src/openapi/data.ts): what the store keeps and sends. */
  data: DataDeclaration;
  /** The migrations generated from the document: the build's (migrations/index.ts) when absent. */
  migrations?: readonly GeneratedMigration[] | undefined;
  /**
   * This instance's clock, in ms since the epoch: times it stamps itself (an endpoint's
   * registration). Tests give an instance a clock that runs ahead or behind.
   */
  clock?: () => number;
}

/** What an engine opens: a repository per resource, all equals, and what the engine itself does. */
export interface Store {
  readonly resources: Resources;
  readonly tokens: TokenStore;
  readonly webhooks: WebhookStore;
  /**
   * Resolves once the database answers a trivial query, within about a second; rejects with
   * StoreUnavailableError otherwise. For readiness probes (GET /readyz).
   */
  ping(): Promise<void>;
  /** Adds an observer of every write (metrics); returns what removes it. */
  observeWrites(observer: WriteObserver): () => void;
  /** Engine, location and durability settings as in effect, for the start-up log line. */
  describe(): string;
  close(): Promise<void>;
}

/**
 * A write broke a rule of the store (a foreign key, a check, a unique key): that write is
 * refused (409) and changes nothing; the other writes of its batch are stored.
 */
export class ConstraintViolationError extends Error {
  override name = "ConstraintViolationError";
}

/**
 * The database cannot be reached, or did not answer in time; nothing is known to be
 * stored, and the same create may be retried (503). `message` is for the log only.
 */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

/**
 * The store cannot write for a reason that is not the caller's and will not pass by itself in
 * a moment: the disk is full, the file or database is read-only, an I/O error, the SQLite file
 * was deleted or replaced while open. Answered 503 like any unavailability; readiness stays 503
 * until a test write succeeds (src/store/fault-latch.ts).
 */
export class StoreFaultError extends StoreUnavailableError {
  override name = "StoreFaultError";
}

/** Schema versions before and after a migration run (equal when nothing was to do). */
export interface MigrationResult {
  from: number;
  to: number;
  /** The migrations generated from the document that this run applied, by id. */
  generated: readonly string[];
}

/** The schema in the database is newer than this build knows; start-up must stop. */
export class SchemaTooNewError extends Error {
  override name = "SchemaTooNewError";
  constructor(found: number | string, known: number | string) {
    super(
      `the database schema is version ${found}, newer than this plantstore knows (${known}); upgrade plantstore`,
    );
  }
}
