// POST /webhook-endpoints (createWebhookEndpoint) through app.inject on both engines: the
// endpoint and its secret, shown in this answer only; the address rules; scopes.
// The answers every operation gives alike (405, 408, 413, 415, 429, 431, 500, 503) are tested
// for every operation of the document by the suites that read it (routing, media types, the
// socket and rate-limit suites, Prism); this file tests what is this operation's own.
import { describe, expect, it } from "vitest";
import { expectError, useTestApp } from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";
import {
  call,
  PLANT_SCOPES,
  RECEIVER_URL,
  registerEndpoint,
  scopedAuth,
} from "../helpers/webhook-endpoints.ts";

describe.each(storeEngines)("POST /webhook-endpoints ($name)", (engine) => {
  const test = useTestApp(engine);

  it("when a public https URL is registered, then 201 with the endpoint and a whsec_ secret, and it is stored without the secret in later answers", async () => {
    const before = Date.now();
    const created = await registerEndpoint(test(), { description: "Inventory sync" });
    const after = Date.now();
    expect(created).toEqual({
      id: expect.stringMatching(/^ep_[0-9a-f]{22}$/),
      url: RECEIVER_URL,
      description: "Inventory sync",
      createdAt: expect.any(String),
      disabledAt: null,
      events: ["newPlant", "plantDeleted"],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    // Made while the request was under way.
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(created.createdAt)).toBeLessThanOrEqual(after);
    const stored = await test().db.store.webhooks.getEndpoint(created.id);
    expect(stored?.url).toBe(RECEIVER_URL);
    const read = await call(test(), "GET", `/webhook-endpoints/${created.id}`);
    const { secret: _secret, ...shown } = created;
    expect(read.json()).toEqual(shown);
  });

  it("when events are named, then it is sent those alone; an event the API does not send is refused with 400", async () => {
    const created = await registerEndpoint(test(), { events: ["plantDeleted"] });
    expect(created.events).toEqual(["plantDeleted"]);
    expect((await test().db.store.webhooks.getEndpoint(created.id))?.events).toEqual([
      "plantDeleted",
    ]);
    const refused = await call(test(), "POST", "/webhook-endpoints", {
      payload: { url: RECEIVER_URL, events: ["plantEaten"] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: 400,
      message: 'events.0 must be one of "newPlant", "plantDeleted"',
    });
  });

  it("when no description is given, then it is null", async () => {
    expect((await registerEndpoint(test())).description).toBeNull();
  });

  it.each([
    ["http://hooks.example.com/plants", /must use https/],
    ["https://127.0.0.1/hooks", /loopback address/],
    ["https://10.1.2.3/hooks", /private address/],
    ["https://169.254.169.254/latest", /link-local address/],
    ["https://[::1]/hooks", /loopback address/],
  ])("when the URL is %s, then 400 says why and nothing is stored", async (url, why) => {
    const before = await test().db.store.webhooks.listEndpoints({ limit: 100 });
    const res = await call(test(), "POST", "/webhook-endpoints", { payload: { url } });
    expectError(res, 400, why);
    const after = await test().db.store.webhooks.listEndpoints({ limit: 100 });
    expect(after.endpoints.length).toBe(before.endpoints.length);
  });

  it.each([
    [{}, /url/],
    [{ url: "not a url" }, /url/],
    [{ url: "https://user:pw@93.184.215.14/" }, /url/],
    [{ url: "https://93.184.215.14/#fragment" }, /url/],
    [{ url: `https://93.184.215.14/${"a".repeat(2048)}` }, /url/],
    [{ url: RECEIVER_URL, description: "d".repeat(1025) }, /description/],
  ])("when the body is %j, then 400 names what is wrong", async (body, what) => {
    expectError(await call(test(), "POST", "/webhook-endpoints", { payload: body }), 400, what);
  });

  it("when the request has no token, then 401", async () => {
    const res = await call(test(), "POST", "/webhook-endpoints", {
      headers: {},
      payload: { url: RECEIVER_URL },
    });
    expectError(res, 401);
  });

  it("when the token lacks webhooks:manage, then 403 and nothing is stored", async () => {
    const before = await test().db.store.webhooks.listEndpoints({ limit: 100 });
    const res = await call(test(), "POST", "/webhook-endpoints", {
      headers: await scopedAuth(test(), PLANT_SCOPES),
      payload: { url: RECEIVER_URL },
    });
    expectError(res, 403, /webhooks:manage/);
    const after = await test().db.store.webhooks.listEndpoints({ limit: 100 });
    expect(after.endpoints.length).toBe(before.endpoints.length);
  });

  it("when the token carries webhooks:manage only, then 201", async () => {
    const res = await call(test(), "POST", "/webhook-endpoints", {
      headers: await scopedAuth(test(), ["webhooks:manage"]),
      payload: { url: RECEIVER_URL },
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe("POST /webhook-endpoints with PLANTSTORE_WEBHOOK_MAX_ENDPOINTS reached", () => {
  const test = useTestApp(undefined, { ops: { maxWebhookEndpoints: 2 } });

  it("when the store holds the most endpoints it takes, then 400 says so and nothing is stored; after a delete, one more fits", async () => {
    const first = await registerEndpoint(test());
    await registerEndpoint(test());
    const refused = await call(test(), "POST", "/webhook-endpoints", {
      payload: { url: RECEIVER_URL },
    });
    expectError(
      refused,
      400,
      /already holds 2 webhook endpoints.*PLANTSTORE_WEBHOOK_MAX_ENDPOINTS/,
    );
    const { endpoints } = await test().db.store.webhooks.listEndpoints({ limit: 10 });
    expect(endpoints).toHaveLength(2);
    expect((await call(test(), "DELETE", `/webhook-endpoints/${first.id}`)).statusCode).toBe(204);
    await registerEndpoint(test());
  });
});
