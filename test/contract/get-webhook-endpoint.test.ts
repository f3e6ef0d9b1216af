// GET /webhook-endpoints/{id} (getWebhookEndpoint) through app.inject on both engines: the
// endpoint without its secret; 404 for an unknown id; no query; scopes.
// The answers every operation gives alike (405, 408, 413, 415, 429, 431, 500, 503) are tested
// for every operation of the document by the suites that read it (routing, media types, the
// socket and rate-limit suites, Prism); this file tests what is this operation's own.
import { describe, expect, it } from "vitest";
import { expectError, useTestApp } from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";
import { call, PLANT_SCOPES, registerEndpoint, scopedAuth } from "../helpers/webhook-endpoints.ts";

describe.each(storeEngines)("GET /webhook-endpoints/{id} ($name)", (engine) => {
  const test = useTestApp(engine);

  it("when a registered endpoint is read, then 200 with it as registered, without its secret", async () => {
    const { secret, ...shown } = await registerEndpoint(test(), { description: "read me" });
    const res = await call(test(), "GET", `/webhook-endpoints/${shown.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(shown);
    expect(res.body).not.toContain(secret);
  });

  it.each(["ep_0", "ep_ffffffffffffffffffffff", "x"])(
    "when the id %s is unknown, then 404 names it",
    async (id) => {
      expectError(await call(test(), "GET", `/webhook-endpoints/${id}`), 404, new RegExp(id));
    },
  );

  it("when the id is longer than 64 characters, then 400", async () => {
    expectError(await call(test(), "GET", `/webhook-endpoints/${"e".repeat(65)}`), 400);
  });

  it("when a query parameter is sent, then 400", async () => {
    const { id } = await registerEndpoint(test());
    expectError(await call(test(), "GET", `/webhook-endpoints/${id}?x=1`), 400);
  });

  it("when the request has no token, then 401", async () => {
    const { id } = await registerEndpoint(test());
    expectError(await call(test(), "GET", `/webhook-endpoints/${id}`, { headers: {} }), 401);
  });

  it("when the token lacks webhooks:manage, then 403", async () => {
    const { id } = await registerEndpoint(test());
    const headers = await scopedAuth(test(), PLANT_SCOPES);
    expectError(await call(test(), "GET", `/webhook-endpoints/${id}`, { headers }), 403);
  });
});
