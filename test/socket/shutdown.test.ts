// A graceful stop (SIGTERM) while clients are creating plants: in-flight requests finish,
// late ones get 503 or a refused connection, nothing hangs, and every 200 is stored.
import { connect } from "node:net";
import { isDeepStrictEqual } from "node:util";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/store.ts";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { type Outcome, plantOf, sleep, startLoad, waitUntil } from "../helpers/load.ts";
import { killLeftoverServers, makeTempDb, startServer } from "../helpers/server-process.ts";
import {
  expectErrorAnswer,
  expectPlantAnswer,
  type RawAnswer,
  rawExchange,
  rawHead,
  rawRequest,
  waitUntilRefused,
} from "../helpers/socket-http.ts";
import { DATA, storeEngines } from "../helpers/stores.ts";

const db = makeTempDb();

// A failed test must not leave its server behind.
afterEach(killLeftoverServers);
afterAll(async () => {
  await killLeftoverServers();
  db.remove();
});

type Answered = Extract<Outcome, { kind: "answer" }>;

describe.each(storeEngines)("a graceful stop under load ($name)", (engine) => {
  test("when SIGTERM arrives during concurrent creates, then every answer is 200 or 503, nothing hangs, the process exits 0 and every 200 is stored", async () => {
    const database = await engine.create();
    try {
      await stopUnderLoad(database.url, () => database.reopen());
    } finally {
      await database.destroy();
    }
  });
});

/** Creates from 12 loops, SIGTERM once some are acknowledged, then checks every outcome. */
async function stopUnderLoad(databaseUrl: string, openStore: () => Promise<Store>): Promise<void> {
  const server = await startServer({ databaseUrl });
  const load = startLoad({
    url: server.url,
    loops: 12,
    // Bounds only: the loops end at their first refused or reset connection after the stop.
    maxRequests: 5_000,
    maxDurationMs: 15_000,
    requestTimeoutMs: 10_000,
    plantFor: (id) => (id % 3n === 0n ? { name: `stop ${id}` } : { name: `stop ${id}`, tag: "" }),
  });

  await sleep(300);
  await waitUntil(() => load.acknowledged() >= 10, "some plants are acknowledged");
  const settledBeforeStop = load.outcomes.length;
  const exit = await server.stop("SIGTERM");
  const outcomes = await load.done;

  expect(exit).toEqual({ code: 0, signal: null });

  // No request hung, and the connection failed only after the stop began.
  const failures = outcomes.filter(
    (o, i) => o.kind === "timeout" || (o.kind === "network-error" && i < settledBeforeStop),
  );
  expect(failures.map((o) => `${o.id}: ${o.kind}`)).toEqual([]);

  const answered = outcomes.filter((o): o is Answered => o.kind === "answer");
  expect(answered.map((o) => o.answer.status).filter((s) => s !== 200 && s !== 503)).toEqual([]);
  const created = answered.filter((o) => o.answer.status === 200);
  const refused = answered.filter((o) => o.answer.status === 503);
  for (const { answer, plant } of created) expectPlantAnswer(answer, plantOf(plant));
  for (const { answer } of refused) expectErrorAnswer(answer, 503);
  expect(created.length).toBeGreaterThanOrEqual(10);

  // After the exit: every 200 is stored exactly; a 503 stored nothing.
  const store = await openStore();
  try {
    const wrong: string[] = [];
    for (const { id, plant } of created) {
      const found = await store.resources.plants.get(id);
      if (found === undefined || !isDeepStrictEqual(plantOf(found), plantOf(plant))) {
        wrong.push(`200 for ${id}: sent ${JSON.stringify(plant)}, stored ${JSON.stringify(found)}`);
      }
    }
    for (const { id } of refused) {
      const found = await store.resources.plants.get(id);
      if (found !== undefined) wrong.push(`503 for ${id}, yet stored ${JSON.stringify(found)}`);
    }
    expect(wrong).toEqual([]);
  } finally {
    await store.close();
  }
}

describe("a graceful stop (SIGTERM)", () => {
  test("when a request's body is still arriving as SIGTERM arrives, then the request completes with 200, the plant is stored and the process exits 0", async () => {
    const server = await startServer({ databasePath: db.path });
    const id = uniqueId();
    const body = plantJson(id, "in flight at SIGTERM", "late");
    const split = Math.floor(body.length / 2);
    let exit: Promise<unknown> = Promise.resolve();

    const answer = await rawRequest(server.url, [
      rawHead(new URL(server.url).host, {
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
        Expect: "100-continue",
      }) + body.slice(0, split),
      async (received) => {
        await waitUntil(() => hasContinue(received()), "the server has the request");
        exit = server.stop("SIGTERM");
        await waitUntilRefused(server.url);
      },
      body.slice(split),
    ]);

    expectPlantAnswer(answer, { name: "in flight at SIGTERM", tag: "late" });
    expect(await exit).toEqual({ code: 0, signal: null });
    const store = openSqliteStore(db.path, { data: DATA });
    try {
      expect(await store.resources.plants.get(id)).toStrictEqual({
        id,
        name: "in flight at SIGTERM",
        tag: "late",
      });
    } finally {
      await store.close();
    }
  });

  // A keep-alive client must not hold the server open until the shutdown deadline.
  test("when a request is in flight at SIGTERM and the client keeps its connection open, then the server closes it and exits 0 within 5 s", async () => {
    const server = await startServer({ databasePath: db.path });
    const id = uniqueId();
    const body = plantJson(id, "kept open");
    const { hostname, port, host } = new URL(server.url);
    const socket = connect({ host: hostname, port: Number(port) });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once("connect", resolve).once("error", reject);
      });
      let received = "";
      socket.on("data", (data: Buffer) => {
        received += data.toString("utf8");
      });
      socket.on("error", () => undefined);
      socket.write(
        rawHead(host, {
          "Content-Type": "application/json",
          "Content-Length": String(Buffer.byteLength(body)),
          Expect: "100-continue",
        }) + body.slice(0, 5),
      );
      await waitUntil(() => hasContinue(received), "the server has the request");
      const exit = server.stop("SIGTERM", 5_000);
      await waitUntilRefused(server.url);
      socket.write(body.slice(5));
      const final = (): string => received.slice(CONTINUE.length);
      await waitUntil(() => final().includes("\r\n\r\n"), "the answer arrives");

      expect(final()).toMatch(/^HTTP\/1\.1 200 /);
      // Like any keep-alive client (fetch's pool, a proxy), the socket stays open.
      expect(await exit).toEqual({ code: 0, signal: null });
    } finally {
      socket.destroy();
    }
  });

  // RFC 9112 §9.6: after "Connection: close" a client must not assume that requests it
  // pipelined behind were processed; it retries them elsewhere (creates are idempotent).
  test("when a request is pipelined behind one that is in flight at SIGTERM, then the first is answered 200 with Connection: close and stored, the second is not processed, and the process exits 0", async () => {
    const server = await startServer({ databasePath: db.path });
    const first = { id: uniqueId(), name: "in flight", tag: "first" };
    const second = { id: uniqueId(), name: "pipelined too late" };
    const firstBody = plantJson(first.id, first.name, first.tag);
    const secondBody = plantJson(second.id, second.name);
    const headers = (body: string, more: Record<string, string> = {}): Record<string, string> => ({
      "Content-Type": "application/json",
      "Content-Length": String(Buffer.byteLength(body)),
      ...more,
    });
    const host = new URL(server.url).host;
    let exit: Promise<unknown> = Promise.resolve();

    const [firstAnswer] = await rawExchange(
      server.url,
      [
        rawHead(host, headers(firstBody, { Expect: "100-continue" })) + firstBody.slice(0, 5),
        async (received) => {
          // The connection is busy with the first request, so the stop does not close it;
          // the second request begins only after the stop has begun.
          await waitUntil(() => hasContinue(received()), "the server has the request");
          exit = server.stop("SIGTERM");
          await waitUntilRefused(server.url);
        },
        firstBody.slice(5) + rawHead(host, headers(secondBody)) + secondBody,
      ],
      1,
    );

    if (firstAnswer === undefined) throw new Error("no answer");
    expectPlantAnswer(firstAnswer, { name: first.name, tag: first.tag });
    expect(firstAnswer.headers["connection"]).toBe("close");
    expect(await exit).toEqual({ code: 0, signal: null });
    const store = openSqliteStore(db.path, { data: DATA });
    try {
      expect(await store.resources.plants.get(first.id)).toStrictEqual({
        id: first.id,
        name: first.name,
        tag: first.tag,
      });
      expect(await store.resources.plants.get(second.id)).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

describe("readiness and the deadline while stopping", () => {
  test("when SIGTERM arrives, then /readyz answers 503 at once on a connection that was already open, while the request in flight still completes", async () => {
    const server = await startServer({ databasePath: db.path });
    const host = new URL(server.url).host;
    const id = uniqueId();
    const body = plantJson(id, "finishes while unready");
    let readiness: Promise<RawAnswer> | undefined;

    const answer = await rawRequest(server.url, [
      rawHead(host, {
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
        Expect: "100-continue",
      }) + body.slice(0, 5),
      async (received) => {
        await waitUntil(() => hasContinue(received()), "the server has the request");
        // A probe connection whose request is under way as the stop begins (a load
        // balancer's keep-alive connection, say): its request is answered after the stop.
        readiness = rawRequest(server.url, [
          `GET /readyz HTTP/1.1\r\nHost: ${host}\r\n`,
          async () => {
            await sleep(200);
            void server.stop("SIGTERM");
            await waitUntilRefused(server.url);
          },
          "\r\n",
        ]);
        await readiness;
      },
      body.slice(5),
    ]);

    if (readiness === undefined) throw new Error("/readyz was never asked");
    const ready = await readiness;
    expectErrorAnswer(ready, 503);
    expect(ready.headers["retry-after"]).toBe("1");
    expectPlantAnswer(answer, { name: "finishes while unready" });
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  test("when an in-flight request outlasts PLANTSTORE_SHUTDOWN_TIMEOUT_MS, then the process exits 1 at the deadline and says so", async () => {
    const server = await startServer({
      databasePath: db.path,
      env: { PLANTSTORE_SHUTDOWN_TIMEOUT_MS: "1000" },
    });
    const { hostname, port, host } = new URL(server.url);
    const socket = connect({ host: hostname, port: Number(port) });
    socket.on("error", () => undefined);
    try {
      let received = "";
      socket.on("data", (data: Buffer) => {
        received += data.toString("utf8");
      });
      await new Promise<void>((resolve, reject) => {
        socket.once("connect", resolve).once("error", reject);
      });
      // A body that never finishes: the request stays in flight past the deadline.
      const head = rawHead(host, {
        "Content-Type": "application/json",
        "Content-Length": "100",
        Expect: "100-continue",
      });
      socket.write(`${head}{`);
      await waitUntil(() => hasContinue(received), "the server has the request");
      const exit = await server.stop("SIGTERM", 10_000);
      expect(exit).toEqual({ code: 1, signal: null });
      const messages = server.stdoutLines().map((line) => JSON.parse(line).msg);
      expect(messages).toContain("shutdown deadline passed; exiting with requests unfinished");
    } finally {
      socket.destroy();
    }
  });
});

// The server logs nothing when a request arrives (one line once it is answered), so a test
// learns that the server holds a request from "Expect: 100-continue": Node sends the
// 100 Continue as it hands the parsed request head to Fastify.
const CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n";
const hasContinue = (received: string): boolean => received.startsWith(CONTINUE);
