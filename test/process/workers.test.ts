// PLANTSTORE_WORKERS=2 on every engine: two processes share the port and the database, a
// create racing across them still has one outcome, a worker that dies is replaced, and the
// supervisor stops them all on SIGTERM (or when it is killed itself).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { plantJson, TOKEN, uniqueId } from "../helpers/app.ts";
import { sleep, waitUntil } from "../helpers/load.ts";
import { bodiesForRound, expectOneVersionWon, REQUESTS } from "../helpers/races.ts";
import { runServerToExit } from "../helpers/run-process.ts";
import { killLeftoverServers, type ServerProcess, startServer } from "../helpers/server-process.ts";
import {
  expectPlantAnswer,
  post,
  rawHead,
  rawRequest,
  waitUntilRefused,
} from "../helpers/socket-http.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";
import { isAlive } from "../helpers/system.ts";
import { hostAndPort, startTcpProxy, throughProxy } from "../helpers/tcp-proxy.ts";

const TWO_WORKERS = { PLANTSTORE_WORKERS: "2" } as const;

/** The pids that logged `message` (pino lines carry the pid of the process that wrote them). */
function pidsLogging(server: ServerProcess, message: RegExp): Set<number> {
  const pids = new Set<number>();
  for (const line of server.stdoutLines()) {
    const parsed = JSON.parse(line) as { pid?: number; msg?: string };
    if (parsed.pid !== undefined && message.test(parsed.msg ?? "")) pids.add(parsed.pid);
  }
  return pids;
}

const listeningWorkers = (server: ServerProcess) => pidsLogging(server, /^Server listening at /);

afterAll(killLeftoverServers);

describe.each(storeEngines)("PLANTSTORE_WORKERS=2 on $name", (engine) => {
  let shared: TestStore;
  let server: ServerProcess;

  beforeAll(async () => {
    shared = await engine.create();
    server = await startServer({ databaseUrl: shared.url, env: TWO_WORKERS });
    await waitUntil(() => listeningWorkers(server).size === 2, "both workers listen", 20_000);
  });
  afterAll(async () => {
    try {
      if (server !== undefined) expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await shared?.destroy();
    }
  });

  test("when many connections create plants, then both worker processes serve them, neither the supervisor", async () => {
    const plants = Array.from({ length: 40 }, () => uniqueId());
    // One connection each, one after another: the supervisor hands connections out in turn.
    const host = new URL(server.url).host;
    for (const id of plants) {
      const body = plantJson(id, "w");
      const head = rawHead(host, {
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
        Connection: "close",
      });
      expectPlantAnswer(await rawRequest(server.url, [head + body]), { name: "w" });
    }
    // Each worker writes its log lines within 250 ms; wait for both.
    await server.waitForStdout(() => pidsLogging(server, /^request completed$/).size >= 2);
    const serving = pidsLogging(server, /^request completed$/);
    expect(serving.size).toBe(2);
    expect(serving.has(server.child.pid ?? -1)).toBe(false);
    for (const id of plants)
      expect(await shared.store.resources.plants.get(id)).toEqual({ id, name: "w" });
  });

  test.each([0, 1])(
    "when 50 creates of one id race across the workers (round %i), then one version is stored, its senders get 200 and the rest 409",
    async (round) => {
      const id = uniqueId();
      const bodies = bodiesForRound(round);
      const answers = await Promise.all(
        bodies.map((plant) => post(server.url, plantJson(id, plant.name, plant.tag))),
      );
      expect(answers).toHaveLength(REQUESTS);
      await expectOneVersionWon(shared.store, id, bodies, answers);
    },
  );

  test("when workers are killed while new connections keep arriving, then every connection is answered or closed, none left waiting", async () => {
    const host = new URL(server.url).host;
    const probe = `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
    let churning = true;
    const outcomes = { answered: 0, closed: 0, stranded: 0 };
    // A fresh connection per request, from 8 clients at once, each bounded by 4 s.
    const clients = Array.from({ length: 8 }, async () => {
      while (churning) {
        await rawRequest(server.url, [probe], 4000).then(
          () => outcomes.answered++,
          (error: Error) =>
            /timed out/.test(error.message) ? outcomes.stranded++ : outcomes.closed++,
        );
      }
    });
    try {
      for (let kill = 0; kill < 3; kill++) {
        const workers = listeningWorkers(server).size;
        await sleep(300);
        const victim = [...listeningWorkers(server)].at(-1);
        if (victim === undefined) throw new Error("no worker pid logged");
        process.kill(victim, "SIGKILL");
        await waitUntil(
          () => listeningWorkers(server).size > workers,
          "a new worker listens",
          20_000,
        );
      }
    } finally {
      churning = false;
      await Promise.all(clients);
    }
    expect(outcomes.stranded).toBe(0);
    expect(outcomes.answered).toBeGreaterThan(0);
  });

  test("when a worker is killed, then another takes its place and the service keeps answering", async () => {
    const started = listeningWorkers(server).size;
    const victim = [...listeningWorkers(server)].at(-1);
    if (victim === undefined) throw new Error("no worker pid logged");
    process.kill(victim, "SIGKILL");
    await waitUntil(() => listeningWorkers(server).size > started, "a new worker listens", 20_000);
    expect(server.stderr()).toMatch(
      new RegExp(`worker ${victim} exited with signal SIGKILL; starting another`),
    );
    for (let i = 0; i < 10; i++) {
      expectPlantAnswer(await post(server.url, plantJson(uniqueId(), "after")), { name: "after" });
    }
  });
});

describe("GET /metrics with PLANTSTORE_WORKERS=2", () => {
  let shared: TestStore;
  let server: ServerProcess;
  beforeAll(async () => {
    const engine = storeEngines[0];
    if (engine === undefined) throw new Error("no store engine");
    shared = await engine.create();
    // One worker sends webhooks; the other workers' scrapes must show its numbers once.
    server = await startServer({
      databaseUrl: shared.url,
      env: {
        ...TWO_WORKERS,
        PLANTSTORE_WEBHOOK_SEND: "true",
        PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "true",
      },
    });
    await waitUntil(() => listeningWorkers(server).size === 2, "both workers listen", 20_000);
  });
  afterAll(async () => {
    try {
      if (server !== undefined) expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await shared?.destroy();
    }
  });

  /** One scrape on a connection of its own, so that either worker may take it. */
  async function scrape(): Promise<string> {
    const host = new URL(server.url).host;
    const answer = await rawRequest(server.url, [
      `GET /metrics HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(answer.status).toBe(200);
    return answer.body;
  }
  /** Scrapes until `done` holds for one, for at most ten seconds. */
  async function scrapeUntil(done: (text: string) => boolean, what: string): Promise<string> {
    const giveUpAt = Date.now() + 10_000;
    for (;;) {
      const text = await scrape();
      if (done(text)) return text;
      if (Date.now() > giveUpAt)
        throw new Error(`no scrape showed that ${what}; the last:\n${text}`);
      await sleep(200);
    }
  }
  const ABSENT_GETS = 'plantstore_http_requests_total{route="getPlant",method="GET",status="404"}';

  test("when requests reach both workers, then every scrape, whichever worker takes it, counts them all", async () => {
    const host = new URL(server.url).host;
    const gets = 40;
    for (let i = 0; i < gets; i++) {
      const get = `GET /plants/${uniqueId()} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`;
      expect((await rawRequest(server.url, [get])).status).toBe(404);
    }
    await server.waitForStdout(() => pidsLogging(server, /^request completed$/).size >= 2);
    expect(pidsLogging(server, /^request completed$/).size).toBe(2);
    // The supervisor makes the text at most once a second: the first scrapes may be older.
    await scrapeUntil((text) => sample(text, ABSENT_GETS) === gets, "a scrape counts every GET");
    for (let i = 0; i < 6; i++) {
      const text = await scrape();
      expect(sample(text, ABSENT_GETS)).toBe(gets);
      expect(sample(text, "plantstore_workers")).toBe(2);
      expect(sample(text, "plantstore_workers_scraped")).toBe(2);
      // Process metrics too are the service's: the heap is both workers' heaps summed.
      expect(sample(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    }
  });

  // Each worker once kept its own second-long copy of the summed text, so a scrape taken by
  // the other worker could show an older one (the gauge back at 0 after 1).
  test("when one worker delivers webhooks, then every scrape shows its attempts and the store's backlog once, not once per worker", async () => {
    const call = (method: string, path: string, body?: string) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body }),
      });
    // Nothing listens on port 9 of the loopback: every attempt fails and the delivery stays pending.
    const registered = await call("POST", "/webhook-endpoints", '{"url":"http://127.0.0.1:9/"}');
    expect(registered.status).toBe(201);
    expect((await call("POST", "/plants", plantJson(uniqueId(), "Counted once"))).status).toBe(200);
    const pendingInStore = (await shared.store.webhooks.backlog()).pending;
    expect(pendingInStore).toBe(1);
    // The backlog is read every 10 s; attempts are counted as they end.
    const giveUpAt = Date.now() + 25_000;
    let text = await scrape();
    while (
      (sample(text, "plantstore_webhook_pending_deliveries") !== pendingInStore ||
        (sample(text, 'plantstore_webhook_attempts_total{outcome="retry"}') ?? 0) < 1) &&
      Date.now() < giveUpAt
    ) {
      await sleep(500);
      text = await scrape();
    }
    for (let i = 0; i < 4; i++) {
      expect(sample(text, "plantstore_webhook_pending_deliveries")).toBe(pendingInStore);
      expect(
        text.split("\n").filter((l) => l.startsWith("plantstore_webhook_pending_deliveries ")),
      ).toHaveLength(1);
      expect(sample(text, 'plantstore_webhook_attempts_total{outcome="retry"}')).toBeGreaterThan(0);
      text = await scrape();
    }
  }, 60_000);

  test("when a worker that was counted is replaced, then what it counted stays in the sums", async () => {
    const before = sample(await scrape(), ABSENT_GETS) ?? 0;
    expect(before).toBeGreaterThan(0);
    const started = listeningWorkers(server).size;
    const victim = [...listeningWorkers(server)].at(-1);
    if (victim === undefined) throw new Error("no worker pid logged");
    process.kill(victim, "SIGKILL");
    await waitUntil(() => listeningWorkers(server).size > started, "a new worker listens", 20_000);
    const after = await scrapeUntil(
      (text) => sample(text, "plantstore_workers_scraped") === 2,
      "a scrape sums the new worker too",
    );
    expect(sample(after, ABSENT_GETS)).toBe(before);
  });
});

/** The value of one sample, e.g. sample(text, 'plantstore_plants_created_total'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const postgres = storeEngines.find((engine) => engine.name === "postgres");

describe.runIf(postgres !== undefined)("the supervisor, with PostgreSQL away", () => {
  test("when it is stopped while a replacement worker is still starting, then it still exits 0", async () => {
    const db = await postgres?.create();
    if (db === undefined) throw new Error("no PostgreSQL");
    const proxy = await startTcpProxy(hostAndPort(db.url));
    try {
      const server = await startServer({
        databaseUrl: throughProxy(db.url, proxy),
        env: { ...TWO_WORKERS, DATABASE_STARTUP_TIMEOUT_MS: "60000" },
      });
      await waitUntil(() => listeningWorkers(server).size === 2, "both workers listen", 20_000);
      // The database goes away, then a worker dies: its replacement is stuck in start-up,
      // retrying the database, before it has any SIGTERM handler of its own.
      await proxy.stop();
      const [victim] = [...listeningWorkers(server)];
      if (victim === undefined) throw new Error("no worker pid logged");
      process.kill(victim, "SIGKILL");
      await waitUntil(
        () => /unreachable .*; retrying in/.test(server.stderr()),
        "the replacement worker retries the database",
        20_000,
      );
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await proxy.close();
      await db.destroy();
    }
  });
});

describe("the supervisor", () => {
  test("when it is killed outright, then its workers stop too and the port is freed", async () => {
    const db = await storeEngines[0]?.create();
    if (db === undefined) throw new Error("no store engine");
    const server = await startServer({ databaseUrl: db.url, env: TWO_WORKERS });
    await waitUntil(() => listeningWorkers(server).size === 2, "both workers listen", 20_000);
    const workers = [...listeningWorkers(server)];
    await server.kill();
    await waitUntilRefused(server.url);
    await waitUntil(() => workers.every((pid) => !isAlive(pid)), "the workers have exited", 15_000);
    await db.destroy();
  });

  test("when its workers cannot start (the port is taken), then it stops with exit 1 and says why", async () => {
    const db = await storeEngines[0]?.create();
    if (db === undefined) throw new Error("no store engine");
    const holder = await startServer({ databaseUrl: db.url });
    try {
      const refused = await runServerToExit({
        DATABASE_URL: db.url,
        PORT: new URL(holder.url).port,
        ...TWO_WORKERS,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+/);
      expect(refused.stderr).toMatch(/worker \d+ exited with code 1 before it served; stopping/);
    } finally {
      await holder.stop();
      await db.destroy();
    }
  });
});
