// Concurrent creates of one id over real sockets, to one server process and to two processes
// sharing one database (each engine): one version wins, identical bodies are idempotent
// replays of it, and every different body is a 409.
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Plant, type PlantStore, samePlant } from "../../src/store/store.ts";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { plantOf } from "../helpers/load.ts";
import {
  closeServerFixture,
  openServerFixture,
  type ServerProcess,
  startServer,
  type TempDb,
} from "../helpers/server-process.ts";
import { type Answer, expectErrorAnswer, expectPlantAnswer, post } from "../helpers/socket-http.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";

const REQUESTS = 50;

let db: TempDb;
let server: ServerProcess;
let stored: PlantStore;

beforeAll(async () => {
  ({ db, server, stored } = await openServerFixture());
});
afterAll(() => closeServerFixture({ db, server, stored }));

/** The common body, and five that differ from it (and from each other) in name, tag or tag presence. */
const COMMON: Plant = { name: "Calathea", tag: "shade" };
const DIFFERENT: readonly Plant[] = [
  { name: "Calathea" },
  { name: "Calathea", tag: "" },
  { name: "Calathea", tag: "sun" },
  { name: "Calathea ", tag: "shade" },
  { name: "Maranta", tag: "shade" },
];

/** The common bodies and the 5 different ones, at positions that vary per round. */
function bodiesForRound(round: number, requests: number = REQUESTS): Plant[] {
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
async function expectOneVersionWon(
  store: PlantStore,
  id: bigint,
  bodies: readonly Plant[],
  answers: readonly Answer[],
): Promise<void> {
  expect(answers).toHaveLength(bodies.length);
  const winner = await store.get(id);
  expect(winner).toBeDefined();
  if (winner === undefined) return;
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

describe("concurrent creates of one id", () => {
  test.each([0, 1, 2, 3])(
    "when 50 creates of one id (45 identical, 5 different) race (round %i), then exactly one version is stored, its senders get 200 with it and every other sender gets 409",
    async (round) => {
      const id = uniqueId();
      const bodies = bodiesForRound(round);
      expect(bodies).toHaveLength(REQUESTS);

      const answers: Answer[] = await Promise.all(
        bodies.map((plant) => post(server.url, plantJson(id, plant.name, plant.tag))),
      );

      await expectOneVersionWon(stored, id, bodies, answers);
    },
  );
});

describe.each(storeEngines)("two server processes on one $name database", (engine) => {
  const IDS = 5;
  const REQUESTS_PER_ID = 60;
  let shared: TestStore;
  let first: ServerProcess;
  let second: ServerProcess;

  beforeAll(async () => {
    shared = await engine.create();
    // One at a time, so this is about serving, not about migrating together (see migrations.test.ts).
    first = await startServer({ databaseUrl: shared.url });
    second = await startServer({ databaseUrl: shared.url });
  });

  afterAll(async () => {
    try {
      // stop() kills a server that does not exit in time, so neither outlives this block;
      // killLeftoverServers is left to the file's afterAll, which still needs its own server.
      const exits = await Promise.all([first?.stop(), second?.stop()]);
      expect(exits).toEqual([
        { code: 0, signal: null },
        { code: 0, signal: null },
      ]);
    } finally {
      await shared?.destroy();
    }
  });

  test.each([0, 1, 2, 3])(
    "when 5 ids each get 60 creates (55 identical, 5 different) racing across two processes at once (round %i), then each id has exactly one stored version, its senders get 200 with it, every other sender gets 409 and nothing is 5xx",
    async (round) => {
      const ids = Array.from({ length: IDS }, uniqueId);
      const bodies = ids.map((_, k) => bodiesForRound(round + k, REQUESTS_PER_ID));
      // Request i of every id goes out before request i + 1 of any, so the ids overlap in
      // time; alternate servers, so identical and different bodies reach both processes.
      const servers = [first, second] as const;
      const sent = Array.from({ length: REQUESTS_PER_ID }, (_, i) =>
        ids.map((id, k) => {
          const plant = bodies[k]?.[i] ?? COMMON;
          return post(servers[i % 2 === 0 ? 0 : 1].url, plantJson(id, plant.name, plant.tag));
        }),
      );
      const answers = await Promise.all(sent.map((perId) => Promise.all(perId)));

      const serverErrors = answers.flat().filter((a) => a.status >= 500);
      expect(serverErrors.map((a) => `${a.status} ${a.body}`)).toEqual([]);
      for (const [k, id] of ids.entries()) {
        const answersForId = answers.map((perId) => perId[k]).filter((a) => a !== undefined);
        await expectOneVersionWon(shared.store, id, bodies[k] ?? [], answersForId);
      }
      // Afterwards each process replays the stored version to a sender of it.
      for (const [k, id] of ids.entries()) {
        const winner = await shared.store.get(id);
        const replay = bodies[k]?.find((plant) => winner !== undefined && samePlant(plant, winner));
        if (replay === undefined) throw new Error(`no body matches the version stored for ${id}`);
        for (const server of servers) {
          expectPlantAnswer(
            await post(server.url, plantJson(id, replay.name, replay.tag)),
            plantOf(replay),
          );
        }
      }
    },
  );
});
