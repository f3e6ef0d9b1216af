// A 200 is sent only once the plant is committed to durable storage: SIGKILL the server
// in the middle of a load and every plant it acknowledged must be there after a restart.
import { isDeepStrictEqual } from "node:util";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { plantJson } from "../helpers/app.ts";
import { type Outcome, plantOf, sleep, startLoad, waitUntil } from "../helpers/load.ts";
import { killLeftoverServers, makeTempDb, startServer } from "../helpers/server-process.ts";
import { expectPlantAnswer, post } from "../helpers/socket-http.ts";

const db = makeTempDb();

// A failed test must not leave its server behind.
afterEach(killLeftoverServers);
afterAll(async () => {
  await killLeftoverServers();
  db.remove();
});

/** Fewer than this many acknowledged plants would make the test nearly vacuous. */
const MIN_ACKNOWLEDGED = 25;

describe("a crash (SIGKILL) under load", () => {
  test("when the server is SIGKILLed while 16 clients create plants, then every plant it acknowledged is stored exactly after a restart", async () => {
    const server = await startServer({ databasePath: db.path });
    const load = startLoad({
      url: server.url,
      loops: 16,
      // Bounds only: the kill below comes long before either is reached.
      maxRequests: 5_000,
      maxDurationMs: 15_000,
      // Unique names, some with a tag, so a stored row can be told from any other.
      plantFor: (id) =>
        id % 2n === 0n ? { name: `crash ${id} 🌱`, tag: `t${id % 7n}` } : { name: `crash ${id}` },
    });

    // Kill once enough has been acknowledged (and some time has passed), while requests are in flight.
    await waitUntil(() => load.acknowledged() >= MIN_ACKNOWLEDGED + 15, "plants are acknowledged");
    await sleep(200);
    const inFlightAtKill = load.inFlight();
    const settledBeforeKill = load.outcomes.length;
    const exit = await server.kill();
    load.stop();
    const outcomes = await load.done;

    expect(exit).toEqual({ code: null, signal: "SIGKILL" });
    expect(inFlightAtKill).toBeGreaterThan(0);
    // No request may hang, the server answered nothing but 200, and no request failed before the kill.
    const unexpected = outcomes.filter(
      (o, i) =>
        o.kind === "timeout" ||
        (o.kind === "answer" && o.answer.status !== 200) ||
        (o.kind === "network-error" && i < settledBeforeKill),
    );
    expect(unexpected.map(describeOutcome)).toEqual([]);
    const acknowledged = outcomes.filter(
      (o): o is Extract<Outcome, { kind: "answer" }> => o.kind === "answer",
    );
    expect(acknowledged.length).toBeGreaterThan(MIN_ACKNOWLEDGED);
    for (const { answer, plant } of acknowledged) expectPlantAnswer(answer, plantOf(plant));

    // The file, read directly after the crash (this also recovers the WAL).
    const store = openSqliteStore(db.path);
    try {
      const wrong: string[] = [];
      for (const { id, plant } of acknowledged) {
        const found = await store.get(id);
        if (!isDeepStrictEqual(found, plantOf(plant))) {
          wrong.push(`${id}: sent ${JSON.stringify(plant)}, stored ${JSON.stringify(found)}`);
        }
      }
      expect(wrong).toEqual([]);
    } finally {
      await store.close();
    }

    // A new server on the same file answers every acknowledged plant's replay with 200.
    const restarted = await startServer({ databasePath: db.path });
    const queue = [...acknowledged];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          const { id, plant } = next;
          const replay = await post(restarted.url, plantJson(id, plant.name, plant.tag));
          expectPlantAnswer(replay, plantOf(plant));
        }
      }),
    );
    expect(await restarted.stop()).toEqual({ code: 0, signal: null });
  });
});

function describeOutcome(outcome: Outcome): string {
  return outcome.kind === "answer"
    ? `${outcome.id}: HTTP ${outcome.answer.status} ${outcome.answer.body}`
    : `${outcome.id}: ${outcome.kind} ${outcome.error.message}`;
}
