// Many creates of one id at once, for the concurrency tests: which bodies to send, and what
// the answers must be (one stored version; its senders get 200 with it, the rest 409).
import { isDeepStrictEqual } from "node:util";
import { expect } from "vitest";
import type { Store } from "../../src/store/store.ts";
import { plantOf } from "./load.ts";
import { type Plant, samePlant } from "./plants.ts";
import { type Answer, expectErrorAnswer, expectPlantAnswer } from "./socket-http.ts";

export const REQUESTS = 50;

/** The common body, and five that differ from it (and from each other) in name, tag or tag presence. */
export const COMMON: Plant = { name: "Calathea", tag: "shade" };
const DIFFERENT: readonly Plant[] = [
  { name: "Calathea" },
  { name: "Calathea", tag: "" },
  { name: "Calathea", tag: "sun" },
  { name: "Calathea ", tag: "shade" },
  { name: "Maranta", tag: "shade" },
];

/** The common bodies and the 5 different ones, at positions that vary per round. */
export function bodiesForRound(round: number, requests: number = REQUESTS): Plant[] {
  const bodies: Plant[] = Array.from({ length: requests - DIFFERENT.length }, () => COMMON);
  DIFFERENT.forEach((plant, i) => {
    bodies.splice((round * 7 + i * 11) % (bodies.length + 1), 0, plant);
  });
  // Round 2 leads with a different body, so the winner is not always the common one.
  if (round === 2) bodies.unshift(...bodies.splice(bodies.indexOf(DIFFERENT[3] ?? COMMON), 1));
  return bodies;
}

/**
 * Exactly one of the bodies sent is stored under `id`; every answer is 200 or 409; the 200s
 * carry the stored version and the 409s are exactly the requests whose body differs from it.
 */
export async function expectOneVersionWon(
  store: Store,
  id: bigint,
  bodies: readonly Plant[],
  answers: readonly Answer[],
): Promise<void> {
  expect(answers).toHaveLength(bodies.length);
  const stored = await store.resources.plants.get(id);
  expect(stored).toBeDefined();
  if (stored === undefined) return;
  const winner = plantOf(stored);
  // The stored version is one of those sent, exactly.
  expect(bodies.some((plant) => isDeepStrictEqual(plantOf(plant), winner))).toBe(true);

  expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 409)).toEqual([]);
  bodies.forEach((plant, i) => {
    const answer = answers[i];
    if (answer === undefined) throw new Error(`no answer for request ${i}`);
    if (samePlant(plant, winner)) {
      expectPlantAnswer(answer, winner);
    } else {
      expect(expectErrorAnswer(answer, 409).message).toContain(String(id));
    }
  });
  const accepted = answers.filter((a) => a.status === 200).length;
  expect(accepted).toBe(bodies.filter((plant) => samePlant(plant, winner)).length);
  expect(accepted).toBeGreaterThanOrEqual(1);
}
