// What a batched write reports for each create, and how that becomes the create's result.
import {
  type CreateResult,
  type NewPlant,
  type Plant,
  type StoredPlant,
  samePlant,
} from "./store.ts";

/** Per create in a batch: inserted now, or the row that was already stored under its id. */
export type RowOutcome = { inserted: true } | { inserted: false; name: string; tag: string | null };

/** Per delete in a batch: whether a row was there to delete. */
export interface DeleteOutcome {
  deleted: boolean;
}

export function resultOf(wanted: Plant, outcome: RowOutcome): CreateResult {
  if (outcome.inserted) return { kind: "created", plant: wanted };
  const existing = toPlant(outcome);
  return samePlant(existing, wanted)
    ? { kind: "replayed", plant: existing }
    : { kind: "conflict", existing };
}

/**
 * Outcomes in batch order from one multi-row insert: `inserted` holds the ids that insert
 * wrote (with the values of each id's first create in the batch), `stored` the rows read
 * afterwards for the others. A later create of an id inserted in the same batch meets the
 * first one's values, exactly as if the two had come one after the other.
 */
export function outcomesInOrder(
  plants: readonly NewPlant[],
  inserted: ReadonlySet<string>,
  stored: ReadonlyMap<string, { name: string; tag: string | null }>,
): RowOutcome[] {
  const firstOf = new Map<string, NewPlant>();
  return plants.map((plant) => {
    const id = String(plant.id);
    const first = firstOf.get(id);
    if (first === undefined) firstOf.set(id, plant);
    if (inserted.has(id)) {
      return first === undefined
        ? { inserted: true }
        : { inserted: false, name: first.name, tag: first.tag ?? null };
    }
    const row = stored.get(id);
    if (row === undefined) throw new Error(`plant ${id} vanished after a conflict`);
    return { inserted: false, name: row.name, tag: row.tag };
  });
}

export const toPlant = (row: { name: string; tag: string | null }): Plant =>
  row.tag === null ? { name: row.name } : { name: row.name, tag: row.tag };

/** A row read with its id, as the store answers it: no tag when none was stored. */
export const toStoredPlant = (row: {
  id: bigint;
  name: string;
  tag: string | null;
}): StoredPlant =>
  row.tag === null ? { id: row.id, name: row.name } : { id: row.id, name: row.name, tag: row.tag };
