// Webhooks under hostile receivers, on a real server: receivers that accept and never answer
// hold up no one else. The slots' fairness step by step: test/unit/slots.test.ts; an endpoint
// deleted or answering 410 getting nothing more: test/webhooks/endpoint-gone.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { call, register } from "../helpers/server-calls.ts";
import { killLeftoverServers, type ServerProcess, startServer } from "../helpers/server-process.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";
import { eventually, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

const SETTINGS = {
  PLANTSTORE_WEBHOOK_SEND: "true",
  PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "true",
  PLANTSTORE_WEBHOOK_TIMEOUT_MS: "3000",
  PLANTSTORE_WEBHOOK_LEASE_MS: "6000",
  PLANTSTORE_WEBHOOK_MAX_ENDPOINTS: "100",
};

describe.each(storeEngines)("webhook delivery under hostile receivers: $name", (engine) => {
  let db: TestStore;
  let server: ServerProcess;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    db = await engine.create();
    server = await startServer({ databaseUrl: db.url, env: SETTINGS });
  });
  afterAll(async () => {
    await server?.stop();
    await killLeftoverServers();
    for (const receiver of receivers) await receiver.close();
    await db?.destroy();
  });

  it("when 50 endpoints that never answer were registered first, then a healthy one still gets every message", async () => {
    // Accepts, reads the request, and never answers.
    const hanging = await startReceiver(() => "handled");
    receivers.push(hanging);
    for (let i = 0; i < 50; i++) await register(server, `${hanging.url}?n=${i}`);
    const healthy = await startReceiver();
    receivers.push(healthy);
    await register(server, healthy.url);
    const ids = Array.from({ length: 20 }, () => uniqueId());
    for (const id of ids) {
      expect((await call(server, "POST", "/plants", plantJson(id, "Fair"))).status).toBe(200);
    }
    // Before fairness it got none in 30 s; the deadline only ends a hang (the slots' turns are
    // checked step by step in test/unit/slots.test.ts).
    await eventually(
      () => ids.every((id) => healthy.received.some((r) => r.body.includes(`"id":${id},`))),
      20_000,
      () => `the healthy receiver got ${healthy.received.length} of ${ids.length}`,
    );
  });
});
