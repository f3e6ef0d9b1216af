// The database going away under a running server and coming back: creates meanwhile get
// 503 with Retry-After and nothing internal, the process keeps running, creates succeed
// again without a restart, and nothing acknowledged (or half-done) is lost or altered.

import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { AUTH, plantJson, uniqueId } from "../helpers/app.ts";
import {
  describeOutcome,
  type Outcome,
  plantOf,
  sleep,
  startLoad,
  waitUntil,
} from "../helpers/load.ts";
import type { Plant } from "../helpers/plants.ts";
import { TEST_DATABASE_URL } from "../helpers/postgres.ts";
import { killLeftoverServers, type ServerProcess, startServer } from "../helpers/server-process.ts";
import {
  type Answer,
  expectErrorAnswer,
  expectPlantAnswer,
  post,
  REQUEST_TIMEOUT_MS,
} from "../helpers/socket-http.ts";
import { postgresEngine, type TestStore } from "../helpers/stores.ts";
import { hostAndPort, startTcpProxy, type TcpProxy, throughProxy } from "../helpers/tcp-proxy.ts";

/**
 * A stopped relay cuts its connections and refuses new ones at once, so an outage is answered
 * without waiting on these; they only have to let a loaded machine open a connection (500 ms did
 * not, at times) and commit a create (1,500 ms did not, for the first creates of a cold server).
 */
const DATABASE_ENV = {
  DATABASE_CONNECT_TIMEOUT_MS: "2000",
  DATABASE_QUERY_TIMEOUT_MS: "5000",
} as const;
const RECOVERY_BOUND_MS = 10_000;

interface Create {
  id: bigint;
  plant: Plant;
  answer: Answer;
}

describe.skipIf(TEST_DATABASE_URL === undefined)("the database going away and coming back", () => {
  let db: TestStore;
  let proxy: TcpProxy;
  let server: ServerProcess;

  beforeAll(async () => {
    db = await postgresEngine.create();
    proxy = await startTcpProxy(hostAndPort(db.url));
    server = await startServer({ databaseUrl: throughProxy(db.url, proxy), env: DATABASE_ENV });
  });

  afterAll(async () => {
    try {
      expect(await server?.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await killLeftoverServers();
      await proxy?.close();
      await db?.destroy();
    }
  });

  /** A 503 that tells the client to come back, and nothing about the database. */
  function expectUnavailable(answer: Answer): void {
    const { message } = expectErrorAnswer(answer, 503);
    expect(answer.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
    const internals = ["127.0.0.1", "localhost", String(proxy.port), hostAndPort(db.url).port];
    for (const internal of internals) expect(message).not.toContain(String(internal));
    // Driver codes (ECONNREFUSED, CONNECTION_CLOSED), SQLSTATEs (57014), engine names.
    expect(message).not.toMatch(/\bE[A-Z]{3,}\b|CONNECT|\b[0-9]{2}[0-9A-Z]{3}\b|postgres|sql/i);
  }

  const createOnce = async (): Promise<Create> => {
    const id = uniqueId();
    const plant = { name: `outage probe ${id}`, tag: "probe" };
    return { id, plant, answer: await post(server.url, plantJson(id, plant.name, plant.tag)) };
  };

  /** Creates fresh plants until one is accepted; every one before it must be a 503. */
  async function createUntilAccepted(): Promise<Create[]> {
    const creates: Create[] = [];
    const deadline = Date.now() + RECOVERY_BOUND_MS;
    for (;;) {
      const create = await createOnce();
      creates.push(create);
      if (create.answer.status !== 503) return creates;
      if (Date.now() > deadline) {
        throw new Error(`creates still get 503 ${RECOVERY_BOUND_MS} ms after the database is back`);
      }
      await sleep(100);
    }
  }

  test("when the database goes away and comes back while clients create plants, then creates get 503 with Retry-After meanwhile and 200 again afterwards from the same process, nothing is 500, and every acknowledged plant is stored exactly", async () => {
    const load = startLoad({
      url: server.url,
      loops: 4,
      // Bounds only: the load is stopped once the database is back.
      maxRequests: 5_000,
      maxDurationMs: 25_000,
      pauseMs: 10,
      plantFor: (id) =>
        id % 2n === 0n ? { name: `outage ${id}`, tag: "load" } : { name: `outage ${id}` },
    });
    onTestFinished(() => load.stop());
    const pid = server.child.pid;
    const statusesOfLoad = (status: number) =>
      load.outcomes.filter((o) => o.kind === "answer" && o.answer.status === status).length;

    await waitUntil(() => load.acknowledged() >= 20, "plants are acknowledged before the outage");
    const settledBeforeOutage = load.outcomes.length;
    await proxy.stop();
    const during = await createOnce();
    expectUnavailable(during.answer);
    await waitUntil(() => statusesOfLoad(503) >= 10, "the load sees the outage");

    await proxy.start();
    const afterwards = await createUntilAccepted();
    const acknowledgedAtRecovery = load.acknowledged();
    await waitUntil(() => load.acknowledged() > acknowledgedAtRecovery, "the load is served again");
    load.stop();
    const outcomes = await load.done;

    expect(server.child.pid).toBe(pid);
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
    expect(afterwards.at(-1)?.answer.status).toBe(200);
    // Every request was answered, with 200 or 503 only; everything before the outage with 200.
    const unexpected = outcomes.filter(
      (o, i) =>
        o.kind !== "answer" ||
        ![200, 503].includes(o.answer.status) ||
        (i < settledBeforeOutage && o.answer.status !== 200),
    );
    expect(unexpected.map(describeOutcome)).toEqual([]);

    const creates = [during, ...afterwards, ...outcomes.filter(isAnswer)];
    await expectStoredAsAnswered(creates);
  });

  test("when the network to the database goes silent, then a read gets 503 with Retry-After at its deadline rather than hanging, and 200 once it answers again", async () => {
    const created = await createOnce();
    expectPlantAnswer(created.answer, created.plant);
    const read = async (): Promise<Answer> => {
      const response = await fetch(`${server.url}/plants/${created.id}`, {
        headers: AUTH,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: await response.text(),
      };
    };
    proxy.freeze();
    try {
      expectUnavailable(await read());
    } finally {
      proxy.thaw();
    }
    const after = await read();
    expect(after.status, after.body).toBe(200);
    expect(JSON.parse(after.body)).toMatchObject(plantOf(created.plant));
  });

  /** Each 200 is stored exactly; each 503 is absent or stored exactly, and its retry gets 200. */
  async function expectStoredAsAnswered(creates: readonly Create[]): Promise<void> {
    const store = await db.reopen();
    const wrong: string[] = [];
    for (const { id, plant, answer } of creates) {
      const stored = await store.resources.plants.get(id);
      if (answer.status === 200) {
        expectPlantAnswer(answer, plantOf(plant));
        if (!isSame(stored, plant)) wrong.push(`${id}: 200, stored ${JSON.stringify(stored)}`);
        continue;
      }
      expectUnavailable(answer);
      if (stored !== undefined && !isSame(stored, plant)) {
        wrong.push(`${id}: 503, half-stored as ${JSON.stringify(stored)}`);
      }
      const retry = await post(server.url, plantJson(id, plant.name, plant.tag));
      expectPlantAnswer(retry, plantOf(plant));
      if (!isSame(await store.resources.plants.get(id), plant))
        wrong.push(`${id}: retried, not stored exactly`);
    }
    expect(wrong).toEqual([]);
  }
});

const isAnswer = (o: Outcome): o is Extract<Outcome, { kind: "answer" }> => o.kind === "answer";

const isSame = (stored: Plant | undefined, plant: Plant): boolean =>
  stored !== undefined && isDeepStrictEqual(plantOf(stored), plantOf(plant));
