// Plants as the tests hold them: the document's types (generated/plants.ts).
import type { components } from "../../generated/plants.ts";

export type Plant = components["schemas"]["Plant"];
export type NewPlant = components["schemas"]["NewPlant"];
export type StoredPlant = components["schemas"]["StoredPlant"];

/** The same name and tag (the id aside). */
export const samePlant = (a: Plant, b: Plant): boolean => a.name === b.name && a.tag === b.tag;
