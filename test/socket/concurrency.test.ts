// Concurrent creates of one id over real sockets, to one server process and to two processes
// sharing one database (each engine): one version wins, identical bodies are idempotent
// replays of it, and every different body is a 409.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Store } from "../../src/store/store.ts";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { plantOf } from "../helpers/load.ts";
import { samePlant } from "../helpers/plants.ts";
import { bodiesForRound, COMMON, expectOneVersionWon, REQUESTS } from "../helpers/races.ts";
import {
  closeServerFixture,
  openServerFixture,
  type ServerProcess,
  startServer,
  type TempDb,
} from "../helpers/server-process.ts";
import { type Answer, expectPlantAnswer, post } from "../helpers/socket-http.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";

let db: TempDb;
let server: ServerProcess;
let stored: Store;

beforeAll(async () => {
  ({ db, server, stored } = await openServerFixture());
});
afterAll(() => closeServerFixture({ db, server, stored }));

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
        const winner = await shared.store.resources.plants.get(id);
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
