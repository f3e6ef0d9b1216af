// The storage interface every engine implements; handlers depend on nothing else.
import type { TokenStore } from "./tokens.ts";
import type { WebhookStore } from "./webhooks.ts";
import type { WriteObserver } from "./writes.ts";

export interface Plant {
  name: string;
  tag?: string;
}

export interface NewPlant extends Plant {
  /** Exact int64. */
  id: bigint;
}

/** What an update changes: a member given replaces the stored one; tag null removes it. */
export interface PlantPatch {
  name?: string;
  tag?: string | null;
}

/** A stored plant with its id, as reads return it. */
export interface StoredPlant extends Plant {
  id: bigint;
}

/**
 * One page of a listing: plants with ids above `after` (all when absent), at most `limit` of
 * them, and no more once their names and tags reach `maxTextBytes` of UTF-8 (at least one).
 */
export interface PageRequest {
  after?: bigint | undefined;
  limit: number;
  maxTextBytes: number;
}

export interface Page {
  plants: StoredPlant[];
  /** Cut at `limit` or at the byte bound: plants may follow (the answer's next link). */
  full: boolean;
}

export type CreateResult =
  /** Stored now, or already stored with the same name and tag (an idempotent replay). */
  | { kind: "created" | "replayed"; plant: Plant }
  /** Already stored under this id with a different name or tag; nothing was changed. */
  | { kind: "conflict"; existing: Plant };

/** The plants: one repository per resource, each engine with its own (sqlite-plants.ts, …). */
export interface PlantStore {
  /** Resolves only once the plant is durably committed. */
  create(plant: NewPlant): Promise<CreateResult>;
  get(id: bigint): Promise<Plant | undefined>;
  /**
   * Plants in ascending id order, cut by id (keyset), so that paging while others write never
   * repeats or skips a plant that exists throughout.
   */
  list(page: PageRequest): Promise<Page>;
  /**
   * Changes a stored plant as a merge patch (a member given replaces the stored one; tag null
   * removes it); resolves once committed with the plant as stored, or undefined if none was.
   */
  update(id: bigint, patch: PlantPatch): Promise<Plant | undefined>;
  /** Resolves once the delete is durably committed: true if a plant was deleted, false if none was stored. */
  delete(id: bigint): Promise<boolean>;
}

/** How a store is opened, beside where. */
export interface StoreOptions {
  /**
   * This instance's clock, in ms since the epoch: times it stamps itself (an endpoint's
   * registration). Tests give an instance a clock that runs ahead or behind.
   */
  clock?: () => number;
}

/** What an engine opens: a repository per resource, all equals, and what the engine itself does. */
export interface Store {
  readonly plants: PlantStore;
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
}

/** The schema in the database is newer than this build knows; start-up must stop. */
export class SchemaTooNewError extends Error {
  override name = "SchemaTooNewError";
  constructor(found: number, known: number) {
    super(
      `the database schema is version ${found}, newer than this plantstore knows (${known}); upgrade plantstore`,
    );
  }
}

export const samePlant = (a: Plant, b: Plant): boolean => a.name === b.name && a.tag === b.tag;
