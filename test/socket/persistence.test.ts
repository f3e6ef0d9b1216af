// What a server stores survives a graceful stop (SIGTERM) and is served, exactly, by the
// next server process on the same file.

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { plantOf } from "../helpers/load.ts";
import type { NewPlant } from "../helpers/plants.ts";
import {
  type ExitResult,
  killLeftoverServers,
  makeTempDb,
  type ServerProcess,
  startServer,
  type TempDb,
} from "../helpers/server-process.ts";
import { type Answer, expectErrorAnswer, expectPlantAnswer, post } from "../helpers/socket-http.ts";
import { DATA } from "../helpers/stores.ts";

/** A bound on a graceful stop; src/main.ts gives up (exit 1) after 10 s. */
const STOP_BOUND_MS = 8_000;

const emptyTag: NewPlant = { id: uniqueId(), name: "with an empty tag", tag: "" };
const noTag: NewPlant = { id: uniqueId(), name: "without a tag" };

const cases: readonly { label: string; plant: NewPlant }[] = [
  { label: "the largest int64 id", plant: { id: 9223372036854775807n, name: "largest int64" } },
  {
    label: "the smallest int64 id",
    plant: { id: -9223372036854775808n, name: "smallest int64", tag: "edge" },
  },
  // 2^53 + 1 rounds to 2^53 as a double; both must be kept apart.
  { label: "id 2^53 + 1", plant: { id: 9007199254740993n, name: "2^53 + 1" } },
  { label: "id 2^53", plant: { id: 9007199254740992n, name: "2^53" } },
  {
    label: "a Unicode name and tag",
    plant: { id: uniqueId(), name: "Fikus 🌿 ñ 中文", tag: "Ünïcödé 🌵" },
  },
  {
    label: "control characters in the name and tag",
    plant: { id: uniqueId(), name: "tab\there\u0001", tag: "line\nbreak\u001f" },
  },
  { label: "an empty tag", plant: emptyTag },
  { label: "no tag", plant: noTag },
];
const plants = cases.map((c) => c.plant);

const bodyOf = (plant: NewPlant): string => plantJson(plant.id, plant.name, plant.tag);

let db: TempDb;
let second: ServerProcess;
const firstAnswers: Answer[] = [];
let firstExit: ExitResult;
let firstLog: string[];

beforeAll(async () => {
  db = makeTempDb();
  const first = await startServer({ databasePath: db.path });
  for (const plant of plants) firstAnswers.push(await post(first.url, bodyOf(plant)));
  firstExit = await first.stop("SIGTERM", STOP_BOUND_MS);
  firstLog = first.stdoutLines();
  second = await startServer({ databasePath: db.path });
});

afterAll(async () => {
  try {
    const exit = await second?.stop("SIGTERM", STOP_BOUND_MS);
    expect(exit).toEqual({ code: 0, signal: null });
  } finally {
    await killLeftoverServers();
    db?.remove();
  }
});

describe("plants across a SIGTERM and a restart on the same file", () => {
  test("when the plants are created on the first server, then each answer is 200 with exactly the Plant", () => {
    expect(firstAnswers).toHaveLength(plants.length);
    plants.forEach((plant, i) => {
      const answer = firstAnswers[i];
      expect(answer).toBeDefined();
      if (answer !== undefined) expectPlantAnswer(answer, plantOf(plant));
    });
  });

  test("when the first server gets SIGTERM, then it exits with code 0 within the bound and logs that it stopped", () => {
    // startServer's stop() rejects (and SIGKILLs) past STOP_BOUND_MS, so reaching here bounds the time.
    expect(firstExit).toEqual({ code: 0, signal: null });
    const messages = firstLog.map((line) => (JSON.parse(line) as { msg?: unknown }).msg);
    expect(messages).toContain("shutting down: finishing in-flight requests");
    expect(messages).toContain("stopped");
  });

  test.each(cases)(
    "when the same body with $label is replayed on the new server, then the answer is 200 with the identical Plant",
    async ({ plant }) => {
      expectPlantAnswer(await post(second.url, bodyOf(plant)), plantOf(plant));
    },
  );

  test.each(cases)(
    "when a different name, tag or tag presence is sent for the plant with $label on the new server, then each answer is 409",
    async ({ plant }) => {
      const variants: NewPlant[] = [
        { ...plant, name: `${plant.name} (renamed)` },
        plant.tag === undefined ? { ...plant, tag: "" } : { id: plant.id, name: plant.name },
        { ...plant, tag: `${plant.tag ?? ""}x` },
      ];
      for (const variant of variants) {
        const error = expectErrorAnswer(await post(second.url, bodyOf(variant)), 409);
        expect(error.message).toContain(String(plant.id));
      }
    },
  );

  test("when the file is opened directly, then get(id) returns exactly each stored plant, telling an absent tag from an empty one", async () => {
    const store = openSqliteStore(db.path, { data: DATA });
    try {
      for (const plant of plants) {
        expect(await store.resources.plants.get(plant.id)).toStrictEqual({
          id: plant.id,
          ...plantOf(plant),
        });
      }
      expect(await store.resources.plants.get(emptyTag.id)).toHaveProperty("tag", "");
      expect(await store.resources.plants.get(noTag.id)).not.toHaveProperty("tag");
    } finally {
      await store.close();
    }
  });
});
