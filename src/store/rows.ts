// What the plant writes report, as the store's results; rows as the store answers them.
import type { CreateResult, Page, Plant, StoredPlant } from "./store.ts";
import type { CreateOutcome, PlantRow, UpdateOutcome } from "./writes.ts";

export function resultOf(wanted: PlantRow, outcome: CreateOutcome): CreateResult {
  if (outcome.outcome === "created") return { kind: "created", plant: toPlant(wanted) };
  const existing = toPlant(outcome);
  return outcome.outcome === "replayed"
    ? { kind: "replayed", plant: existing }
    : { kind: "conflict", existing };
}

/** What an updatePlant write reports, as the store answers it: undefined when none was stored. */
export const updatedPlant = (outcome: UpdateOutcome): Plant | undefined =>
  outcome.outcome === "updated" ? toPlant(outcome) : undefined;

export const toPlant = (row: { name: string; tag: string | null }): Plant =>
  row.tag === null ? { name: row.name } : { name: row.name, tag: row.tag };

/** A row read with its id, as the store answers it: no tag when none was stored. */
export const toStoredPlant = (row: {
  id: bigint;
  name: string;
  tag: string | null;
}): StoredPlant =>
  row.tag === null ? { id: row.id, name: row.name } : { id: row.id, name: row.name, tag: row.tag };

/** A page as its rows come, cut at its count or once its names and tags reach the byte bound. */
export class PageBuilder {
  readonly #plants: StoredPlant[] = [];
  #bytes = 0;
  #cut = false;

  constructor(
    private readonly limit: number,
    private readonly maxTextBytes: number,
  ) {}

  /** Adds the plant if it fits; false once the page is full (the plant is not on it). */
  add(plant: StoredPlant): boolean {
    const bytes =
      Buffer.byteLength(plant.name) + (plant.tag === undefined ? 0 : Buffer.byteLength(plant.tag));
    if (this.#plants.length > 0 && this.#bytes + bytes > this.maxTextBytes) {
      this.#cut = true;
      return false;
    }
    this.#plants.push(plant);
    this.#bytes += bytes;
    return this.#plants.length < this.limit;
  }

  done(): Page {
    return { plants: this.#plants, full: this.#cut || this.#plants.length >= this.limit };
  }
}
