// POST /webhook-endpoints/{id}/deliveries/{deliveryId}/retry (retryWebhookDelivery) through
// app.inject on both engines: a failed or delivered delivery is pending again, due now, its
// attempts from 0; 404 for an unknown endpoint or delivery (or another endpoint's); scopes.
// The answers every operation gives alike (405, 408, 413, 415, 429, 431, 500, 503) are tested
// for every operation of the document by the suites that read it (routing, media types, the
// socket and rate-limit suites, Prism); this file tests what is this operation's own.
import { describe, expect, it } from "vitest";
import {
  expectError,
  plantJson,
  postPlant,
  type TestApp,
  uniqueId,
  useTestApp,
} from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";
import { call, PLANT_SCOPES, registerEndpoint, scopedAuth } from "../helpers/webhook-endpoints.ts";

/** An endpoint with one delivery, which the store records as `record` after one attempt. */
async function deliveryRecorded(
  test: TestApp,
  record: "failed" | "delivered",
): Promise<{ endpoint: string; delivery: string }> {
  const { id: endpoint } = await registerEndpoint(test);
  expect((await postPlant(test.app, plantJson(uniqueId(), "Retried"))).statusCode).toBe(200);
  const owner = `retry-test-${uniqueId()}`;
  const claimed = await test.db.store.webhooks.claim({
    owner,
    leaseMs: 5000,
    limit: 1000,
    perEndpoint: 1000,
    free: {},
  });
  const mine = claimed.find((d) => d.endpointId === endpoint);
  if (mine === undefined) throw new Error("the delivery was not claimed");
  await test.db.store.webhooks.complete(
    mine.id,
    owner,
    record === "failed"
      ? { kind: "failed", status: 500, error: null }
      : { kind: "delivered", status: 200 },
  );
  await test.db.store.webhooks.release(
    owner,
    claimed.filter((d) => d !== mine).map((d) => d.id),
  );
  return { endpoint, delivery: mine.id };
}

describe.each(storeEngines)("POST …/deliveries/{deliveryId}/retry ($name)", (engine) => {
  const test = useTestApp(engine);
  const retry = (endpoint: string, delivery: string, headers?: Record<string, string>) =>
    call(test(), "POST", `/webhook-endpoints/${endpoint}/deliveries/${delivery}/retry`, {
      ...(headers === undefined ? {} : { headers }),
    });

  it.each(["failed", "delivered"] as const)(
    "when a %s delivery is retried, then 202 with it pending, due now, attempts from 0, and the log says so",
    async (record) => {
      const { endpoint, delivery } = await deliveryRecorded(test(), record);
      const log = await test().db.store.webhooks.listDeliveries(endpoint, { limit: 10 });
      expect(log?.deliveries[0]).toMatchObject({ status: record, attempts: 1 });

      const before = Date.now();
      const res = await retry(endpoint, delivery);
      const after = Date.now();
      expect(res.statusCode, res.body).toBe(202);
      const answer = res.json() as { status: string; attempts: number; nextAttemptAt: string };
      expect(answer).toMatchObject({ id: delivery, status: "pending", attempts: 0 });
      // Due now: when the retry was made.
      expect(Date.parse(answer.nextAttemptAt)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(answer.nextAttemptAt)).toBeLessThanOrEqual(after);
      const stored = await test().db.store.webhooks.listDeliveries(endpoint, { limit: 10 });
      expect(stored?.deliveries[0]).toMatchObject({ id: delivery, status: "pending", attempts: 0 });
    },
  );

  it("when the endpoint is unknown, then 404 names it", async () => {
    expectError(await retry("ep_0", "msg_0"), 404, /no webhook endpoint ep_0/);
  });

  it("when the delivery is unknown, or another endpoint's, then 404 names it", async () => {
    const { delivery } = await deliveryRecorded(test(), "failed");
    const { id: other } = await registerEndpoint(test());
    expectError(await retry(other, "msg_0"), 404, /no delivery msg_0/);
    expectError(await retry(other, delivery), 404, new RegExp(delivery));
  });

  it("when a query is sent, then 400 and the delivery stays failed", async () => {
    const { endpoint, delivery } = await deliveryRecorded(test(), "failed");
    const res = await call(
      test(),
      "POST",
      `/webhook-endpoints/${endpoint}/deliveries/${delivery}/retry?now=1`,
    );
    expectError(res, 400);
    const log = await test().db.store.webhooks.listDeliveries(endpoint, { limit: 10 });
    expect(log?.deliveries[0]?.status).toBe("failed");
  });

  it("when the request has no token, then 401", async () => {
    const { endpoint, delivery } = await deliveryRecorded(test(), "failed");
    expectError(await retry(endpoint, delivery, {}), 401);
  });

  it("when the token lacks webhooks:manage, then 403 and the delivery stays failed", async () => {
    const { endpoint, delivery } = await deliveryRecorded(test(), "failed");
    expectError(await retry(endpoint, delivery, await scopedAuth(test(), PLANT_SCOPES)), 403);
    const log = await test().db.store.webhooks.listDeliveries(endpoint, { limit: 10 });
    expect(log?.deliveries[0]?.status).toBe("failed");
  });
});
