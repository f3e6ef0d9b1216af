// What a createPlant write reports, as the store's CreateResult; rows as the store answers them.
import type { CreateResult, Plant, StoredPlant } from "./store.ts";
import type { CreateOutcome, PlantRow } from "./writes.ts";

export function resultOf(wanted: PlantRow, outcome: CreateOutcome): CreateResult {
  if (outcome.outcome === "created") return { kind: "created", plant: toPlant(wanted) };
  const existing = toPlant(outcome);
  return outcome.outcome === "replayed"
    ? { kind: "replayed", plant: existing }
    : { kind: "conflict", existing };
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
