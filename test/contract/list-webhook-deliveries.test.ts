// GET /webhook-endpoints/{id}/deliveries (listWebhookDeliveries) through app.inject on both
// engines: one pending delivery per plant created since registration, oldest first, paged by
// Link; the query checked; 404 for an unknown endpoint; scopes. (No deliverer runs here: the
// deliveries stay pending; the delivery suites in test/webhooks send them.)
// The answers every operation gives alike (405, 408, 413, 415, 429, 431, 500, 503) are tested
// for every operation of the document by the suites that read it (routing, media types, the
// socket and rate-limit suites, Prism); this file tests what is this operation's own.
import { describe, expect, it } from "vitest";
import { expectError, plantJson, postPlant, uniqueId, useTestApp } from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";
import { call, PLANT_SCOPES, registerEndpoint, scopedAuth } from "../helpers/webhook-endpoints.ts";

interface Delivery {
  id: string;
  plantId: number;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
}

describe.each(storeEngines)("GET /webhook-endpoints/{id}/deliveries ($name)", (engine) => {
  const test = useTestApp(engine);

  it("when plants are created after registration, then each has one pending delivery, oldest first, paged by Link; those before it have none", async () => {
    const before = uniqueId();
    await postPlant(test().app, plantJson(before, "Before"));
    const { id } = await registerEndpoint(test());
    const ids = [uniqueId(), uniqueId(), uniqueId()];
    for (const plant of ids) {
      expect((await postPlant(test().app, plantJson(plant, "After"))).statusCode).toBe(200);
    }
    const first = await call(test(), "GET", `/webhook-endpoints/${id}/deliveries?limit=2`);
    expect(first.statusCode).toBe(200);
    const page = first.json() as Delivery[];
    // Exact ids in the text (JSON.parse would round them).
    expect(first.body).toContain(`"plantId":${ids[0]},`);
    expect(first.body).toContain(`"plantId":${ids[1]},`);
    expect(first.body).not.toContain(String(before));
    for (const delivery of page) {
      expect(delivery).toMatchObject({ status: "pending", attempts: 0, lastStatus: null });
      expect(delivery.id).toMatch(/^msg_[0-9a-f]{32}$/);
    }
    const link = /^<([^>]+)>; rel="next"$/.exec(String(first.headers["link"]))?.[1];
    expect(link).toBe(`/webhook-endpoints/${id}/deliveries?after=${page[1]?.id}&limit=2`);
    const second = await call(test(), "GET", link ?? "");
    expect(second.body).toContain(`"plantId":${ids[2]},`);
    expect((second.json() as Delivery[]).length).toBe(1);
    expect(second.headers["link"]).toBeUndefined();
  });

  it("when an endpoint has no deliveries, then 200 with an empty list", async () => {
    const { id } = await registerEndpoint(test());
    const res = await call(
      test(),
      "GET",
      `/webhook-endpoints/${id}/deliveries?after=msg_ffffffffffff`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it.each(["limit=0", "limit=101", "limit=1.5", `after=${"m".repeat(65)}`, "status=pending"])(
    "when the query is %s, then 400",
    async (query) => {
      const { id } = await registerEndpoint(test());
      expectError(await call(test(), "GET", `/webhook-endpoints/${id}/deliveries?${query}`), 400);
    },
  );

  it("when the endpoint is unknown, then 404", async () => {
    expectError(await call(test(), "GET", "/webhook-endpoints/ep_0/deliveries"), 404, /ep_0/);
  });

  it("when the request has no token, then 401", async () => {
    const { id } = await registerEndpoint(test());
    const res = await call(test(), "GET", `/webhook-endpoints/${id}/deliveries`, { headers: {} });
    expectError(res, 401);
  });

  it("when the token lacks webhooks:manage, then 403", async () => {
    const { id } = await registerEndpoint(test());
    const headers = await scopedAuth(test(), PLANT_SCOPES);
    const res = await call(test(), "GET", `/webhook-endpoints/${id}/deliveries`, { headers });
    expectError(res, 403);
  });
});
