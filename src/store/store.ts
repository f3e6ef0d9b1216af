// The storage interface every engine implements; handlers depend on nothing else.

export interface Plant {
  name: string;
  tag?: string;
}

export interface NewPlant extends Plant {
  /** Exact int64. */
  id: bigint;
}

export type CreateResult =
  /** Stored now, or already stored with the same name and tag (an idempotent replay). */
  | { kind: "created" | "replayed"; plant: Plant }
  /** Already stored under this id with a different name or tag; nothing was changed. */
  | { kind: "conflict"; existing: Plant };

export interface PlantStore {
  /** Resolves only once the plant is durably committed. */
  create(plant: NewPlant): Promise<CreateResult>;
  get(id: bigint): Promise<Plant | undefined>;
  /** Engine, location and durability settings as in effect, for the start-up log line. */
  describe(): string;
  close(): Promise<void>;
}

/** A value the engine cannot keep exactly; the request is at fault (400), not the server. */
export class UnstorableValueError extends Error {
  override name = "UnstorableValueError";
}

export const samePlant = (a: Plant, b: Plant): boolean => a.name === b.name && a.tag === b.tag;

/**
 * Every engine here stores text as UTF-8, which has no encoding for a lone UTF-16
 * surrogate (JSON "\ud800" decodes to one): it would come back as U+FFFD.
 */
export function assertStorableText(plant: Plant): void {
  for (const [field, value] of Object.entries(plant)) {
    if (typeof value === "string" && !value.isWellFormed()) {
      throw new UnstorableValueError(
        `${field} contains an unpaired UTF-16 surrogate, which cannot be stored exactly`,
      );
    }
  }
}
