// A graceful stop while attempts are under way, and a restart on the same database, on every
// engine: the claims the stopped server held are given back, and the restarted one sends every
// message promptly, repeating at most the attempts that were cut short.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, register } from "../helpers/server-calls.ts";
import { killLeftoverServers, type ServerProcess, startServer } from "../helpers/server-process.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";
import { onConnection } from "../helpers/token-rows.ts";
import { eventually, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

// A receiver slower than one attempt's share of the lease's margin over the timeout (1 s), so
// that most of what a claim takes for it waits longer than that before a slot is free.
const ANSWER_AFTER_MS = 1500;
const CREATES = 30;
const ENV = {
  PLANTSTORE_WEBHOOK_SEND: "true",
  PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "true",
  PLANTSTORE_WEBHOOK_TIMEOUT_MS: "4000",
  PLANTSTORE_WEBHOOK_LEASE_MS: "5000",
  PLANTSTORE_WEBHOOK_RETRY_SCHEDULE: "1s,1s,1s,1s,1s,1s",
};

interface SlowReceiver extends Receiver {
  /** Requests it holds, not answered yet. */
  holding(): number;
  answered(): number;
}

/** A receiver that answers 200 after ANSWER_AFTER_MS. */
async function slowReceiver(): Promise<SlowReceiver> {
  let holding = 0;
  let answered = 0;
  const receiver = await startReceiver((_, response) => {
    holding++;
    const answer = setTimeout(() => {
      answered++;
      response.writeHead(200).end();
    }, ANSWER_AFTER_MS);
    response.on("close", () => {
      clearTimeout(answer);
      holding--;
    });
    return "handled";
  });
  return { ...receiver, holding: () => holding, answered: () => answered };
}

/** Deliveries some instance holds a claim on. */
async function heldClaims(databaseUrl: string): Promise<number> {
  let held = 0;
  const query = "SELECT count(*) AS n FROM webhook_deliveries WHERE lease_owner IS NOT NULL";
  await onConnection(databaseUrl, {
    sqlite: (db) => {
      held = Number((db.prepare(query).get() as { n: number }).n);
    },
    postgres: async (sql) => {
      held = Number((await sql.unsafe(query))[0]?.["n"]);
    },
  });
  return held;
}

describe.each(storeEngines)("webhooks across a graceful restart: $name", (engine) => {
  let db: TestStore;
  let server: ServerProcess | undefined;
  let receiver: SlowReceiver | undefined;
  beforeAll(async () => {
    db = await engine.create();
  });
  afterEach(async () => {
    await server?.stop();
    await receiver?.close();
  });
  afterAll(async () => {
    await killLeftoverServers();
    await db?.destroy();
  });

  it(`when the server is stopped with SIGTERM while attempts are under way and started again, then it resumes at once and all ${CREATES} messages arrive, repeating at most those under way`, async () => {
    const slow = await slowReceiver();
    receiver = slow;
    server = await startServer({ databaseUrl: db.url, env: ENV });
    const endpoint = await register(server, slow.url);
    const ids = Array.from({ length: CREATES }, (_, n) => 900_000 + n);
    for (const id of ids) {
      expect((await call(server, "POST", "/plants", { id, name: `r${id}` })).status).toBe(200);
    }
    // Stopped once some are delivered and a full share of attempts (4) is under way.
    await eventually(
      () => slow.answered() >= 8 && slow.holding() >= 4,
      30_000,
      () => `${slow.answered()} answered, ${slow.holding()} attempts under way`,
    );
    const underWay = slow.holding();
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    // Every claim was given back: due at once, for any instance, not after its lease.
    expect(await heldClaims(db.url)).toBe(0);
    const restartedAt = Date.now();
    server = await startServer({ databaseUrl: db.url, env: ENV });
    const arrived = () =>
      new Set(slow.received.map((r) => (JSON.parse(r.body) as { id: number }).id));
    // The deadline only bounds a failing run (a stall lasted minutes).
    await eventually(
      () => arrived().size >= CREATES,
      30_000,
      () => `${arrived().size} of ${CREATES} arrived`,
    );
    console.info(
      `${engine.name}: all ${CREATES} arrived ${Date.now() - restartedAt} ms after the restart, ${slow.received.length - CREATES} twice`,
    );
    expect(slow.received.length - CREATES).toBeLessThanOrEqual(underWay);
    const log = await call(server, "GET", `/webhook-endpoints/${endpoint.id}/deliveries?limit=100`);
    expect(log.body).toHaveLength(CREATES);
  }, 90_000);
});
