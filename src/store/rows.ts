// The plant writes every engine shares (through the write path), what they report as the
// store's results, and rows as the store answers them.
import type { CreateResult, Page, Plant, PlantStore, StoredPlant } from "./store.ts";
import type { CreateOutcome, PlantRow, UpdateOutcome, WritePath } from "./writes.ts";

/** A plant repository's writes: the same on every engine, which reads in its own way. */
export function plantWrites(
  run: WritePath["run"],
): Pick<PlantStore, "create" | "update" | "delete"> {
  return {
    create(plant) {
      const row = { id: plant.id, name: plant.name, tag: plant.tag ?? null };
      return run("createPlant", row).then((outcome) => resultOf(row, outcome));
    },
    async update(id, patch) {
      return updatedPlant(await run("updatePlant", { id, ...patch }));
    },
    async delete(id) {
      return (await run("deletePlant", { id })).outcome === "deleted";
    },
  };
}

function resultOf(wanted: PlantRow, outcome: CreateOutcome): CreateResult {
  if (outcome.outcome === "created") return { kind: "created", plant: toPlant(wanted) };
  const existing = toPlant(outcome);
  return outcome.outcome === "replayed"
    ? { kind: "replayed", plant: existing }
    : { kind: "conflict", existing };
}

/** What an updatePlant write reports, as the store answers it: undefined when none was stored. */
const updatedPlant = (outcome: UpdateOutcome): Plant | undefined =>
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
