// A 200 is sent only once the plant is committed to durable storage: SIGKILL the server
// in the middle of a load and every plant it acknowledged must be there after a restart,
// on every engine. Likewise a 204 to a delete: every plant whose delete was acknowledged must
// be gone.
import { isDeepStrictEqual } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import { AUTH, plantJson } from "../helpers/app.ts";
import {
  describeOutcome,
  type Outcome,
  plantOf,
  sleep,
  startLoad,
  waitUntil,
} from "../helpers/load.ts";
import { killLeftoverServers, startServer } from "../helpers/server-process.ts";
import { expectPlantAnswer, post } from "../helpers/socket-http.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";

let db: TestStore | undefined;

// A failed test must not leave its server or its database behind.
afterEach(async () => {
  await killLeftoverServers();
  await db?.destroy();
  db = undefined;
});

/** Fewer than this many acknowledged plants would make the test nearly vacuous. */
const MIN_ACKNOWLEDGED = 25;

describe.each(storeEngines)("a crash (SIGKILL) under load on $name", (engine) => {
  test("when the server is SIGKILLed while 16 clients create plants, then every plant it acknowledged is stored exactly after a restart", async () => {
    db = await engine.create();
    const server = await startServer({ databaseUrl: db.url });
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

    // The database, read over a new connection after the crash.
    const store = await db.reopen();
    const wrong: string[] = [];
    for (const { id, plant } of acknowledged) {
      const found = await store.resources.plants.get(id);
      if (found === undefined || !isDeepStrictEqual(plantOf(found), plantOf(plant))) {
        wrong.push(`${id}: sent ${JSON.stringify(plant)}, stored ${JSON.stringify(found)}`);
      }
    }
    expect(wrong).toEqual([]);

    // A new server on the same database answers every acknowledged plant's replay with 200.
    const restarted = await startServer({ databaseUrl: db.url });
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

describe.each(storeEngines)("a crash (SIGKILL) while plants are deleted on $name", (engine) => {
  test("when the server is SIGKILLed while 16 clients delete plants, then every plant whose delete it acknowledged is gone after a restart", async () => {
    db = await engine.create();
    const ids = Array.from({ length: 3000 }, (_, i) => BigInt(i + 1));
    await Promise.all(
      ids.map((id) => db?.store.resources.plants.create({ id, name: `doomed ${id}` })),
    );
    const server = await startServer({ databaseUrl: db.url });
    const queue = [...ids];
    const deleted: bigint[] = [];
    const unexpected: string[] = [];
    let inFlight = 0;
    let killed = false;
    const clients = Array.from({ length: 16 }, async () => {
      for (let id = queue.shift(); id !== undefined && !killed; id = queue.shift()) {
        inFlight++;
        try {
          const response = await fetch(`${server.url}/plants/${id}`, {
            method: "DELETE",
            headers: AUTH,
            signal: AbortSignal.timeout(10_000),
          });
          await response.text();
          if (response.status === 204) deleted.push(id);
          else unexpected.push(`${id}: ${response.status}`);
        } catch (error) {
          if (!killed) unexpected.push(`${id}: ${String(error)}`);
        } finally {
          inFlight--;
        }
      }
    });
    await waitUntil(() => deleted.length >= MIN_ACKNOWLEDGED + 15, "deletes are acknowledged");
    await sleep(200);
    const inFlightAtKill = inFlight;
    killed = true;
    expect(await server.kill()).toEqual({ code: null, signal: "SIGKILL" });
    await Promise.all(clients);

    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(unexpected).toEqual([]);
    const store = await db.reopen();
    const stillThere: bigint[] = [];
    for (const id of deleted)
      if ((await store.resources.plants.get(id)) !== undefined) stillThere.push(id);
    expect(stillThere).toEqual([]);
    // What was never asked to go is all still there.
    const untouched = queue.slice(0, 100);
    for (const id of untouched)
      expect(await store.resources.plants.get(id)).toEqual({ id, name: `doomed ${id}` });
  });
});
