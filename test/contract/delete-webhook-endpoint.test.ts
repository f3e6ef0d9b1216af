// DELETE /webhook-endpoints/{id} (deleteWebhookEndpoint) through app.inject on both engines:
// the endpoint and its delivery log go (pending deliveries dropped); 404 for an unknown id or a
// second delete; no query; scopes.
// The answers every operation gives alike (405, 408, 413, 415, 429, 431, 500, 503) are tested
// for every operation of the document by the suites that read it (routing, media types, the
// socket and rate-limit suites, Prism); this file tests what is this operation's own.
import { describe, expect, it } from "vitest";
import { expectError, plantJson, postPlant, uniqueId, useTestApp } from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";
import { call, PLANT_SCOPES, registerEndpoint, scopedAuth } from "../helpers/webhook-endpoints.ts";

describe.each(storeEngines)("DELETE /webhook-endpoints/{id} ($name)", (engine) => {
  const test = useTestApp(engine);

  it("when an endpoint with pending deliveries is removed, then 204 without a body, it is gone, and so are its deliveries", async () => {
    const { id } = await registerEndpoint(test());
    expect((await postPlant(test().app, plantJson(uniqueId(), "Fern"))).statusCode).toBe(200);
    const log = await test().db.store.webhooks.listDeliveries(id, { limit: 100 });
    expect(log?.deliveries.map((d) => d.status)).toEqual(["pending"]);
    const before = (await test().db.store.webhooks.backlog()).pending;

    const res = await call(test(), "DELETE", `/webhook-endpoints/${id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect(await test().db.store.webhooks.getEndpoint(id)).toBeUndefined();
    expect(await test().db.store.webhooks.listDeliveries(id, { limit: 100 })).toBeUndefined();
    expect((await test().db.store.webhooks.backlog()).pending).toBe(before - 1);
    expectError(await call(test(), "GET", `/webhook-endpoints/${id}/deliveries`), 404);
  });

  it("when an endpoint is removed twice, then the second is 404", async () => {
    const { id } = await registerEndpoint(test());
    expect((await call(test(), "DELETE", `/webhook-endpoints/${id}`)).statusCode).toBe(204);
    expectError(await call(test(), "DELETE", `/webhook-endpoints/${id}`), 404, new RegExp(id));
  });

  it("when the id is unknown, then 404", async () => {
    expectError(await call(test(), "DELETE", "/webhook-endpoints/ep_0"), 404);
  });

  it("when a query parameter is sent, then 400 and the endpoint stays", async () => {
    const { id } = await registerEndpoint(test());
    expectError(await call(test(), "DELETE", `/webhook-endpoints/${id}?force=1`), 400);
    expect(await test().db.store.webhooks.getEndpoint(id)).toBeDefined();
  });

  it("when the request has no token, then 401 and the endpoint stays", async () => {
    const { id } = await registerEndpoint(test());
    expectError(await call(test(), "DELETE", `/webhook-endpoints/${id}`, { headers: {} }), 401);
    expect(await test().db.store.webhooks.getEndpoint(id)).toBeDefined();
  });

  it("when the token lacks webhooks:manage, then 403 and the endpoint stays", async () => {
    const { id } = await registerEndpoint(test());
    const headers = await scopedAuth(test(), PLANT_SCOPES);
    expectError(await call(test(), "DELETE", `/webhook-endpoints/${id}`, { headers }), 403);
    expect(await test().db.store.webhooks.getEndpoint(id)).toBeDefined();
  });
});
