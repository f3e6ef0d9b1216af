// GET /webhook-endpoints (listWebhookEndpoints) through app.inject on both engines: pages in
// ascending order of id linked by Link, never a secret; the query checked; scopes.
// The answers every operation gives alike (405, 408, 413, 415, 429, 431, 500, 503) are tested
// for every operation of the document by the suites that read it (routing, media types, the
// socket and rate-limit suites, Prism); this file tests what is this operation's own.
import { describe, expect, it } from "vitest";
import { createTestApp, expectError, type TestApp, useTestApp } from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";
import { call, PLANT_SCOPES, registerEndpoint, scopedAuth } from "../helpers/webhook-endpoints.ts";

describe.each(storeEngines)("GET /webhook-endpoints ($name)", (engine) => {
  it("when three endpoints are registered and listed two at a time, then the pages follow Link in id order, without secrets, and the last has no Link", async () => {
    // A store of its own: the listing is of every endpoint.
    const test: TestApp = await createTestApp(engine);
    try {
      const made = [];
      for (const n of [1, 2, 3]) made.push(await registerEndpoint(test, { description: `n${n}` }));
      const first = await call(test, "GET", "/webhook-endpoints?limit=2");
      expect(first.statusCode).toBe(200);
      const ids = made.map((e) => e.id).sort();
      expect(first.json().map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 2));
      for (const e of first.json()) expect(e).not.toHaveProperty("secret");
      const link = /^<([^>]+)>; rel="next"$/.exec(String(first.headers["link"]))?.[1];
      expect(link).toBe(`/webhook-endpoints?after=${ids[1]}&limit=2`);
      const second = await call(test, "GET", link ?? "");
      expect(second.json().map((e: { id: string }) => e.id)).toEqual(ids.slice(2));
      expect(second.headers["link"]).toBeUndefined();
      const past = await call(test, "GET", `/webhook-endpoints?after=${ids[2]}`);
      expect(past.json()).toEqual([]);
    } finally {
      await test.close();
    }
  });

  const shared = useTestApp(engine);

  it.each([
    "limit=0",
    "limit=101",
    "limit=x",
    `after=${"e".repeat(65)}`,
    "other=1",
    "limit=1&limit=2",
  ])("when the query is %s, then 400", async (query) => {
    expectError(await call(shared(), "GET", `/webhook-endpoints?${query}`), 400);
  });

  it("when the request has no token, then 401", async () => {
    expectError(await call(shared(), "GET", "/webhook-endpoints", { headers: {} }), 401);
  });

  it("when the token lacks webhooks:manage, then 403", async () => {
    const headers = await scopedAuth(shared(), PLANT_SCOPES);
    expectError(
      await call(shared(), "GET", "/webhook-endpoints", { headers }),
      403,
      /webhooks:manage/,
    );
  });
});
