// POST /webhook-endpoints/{id}/rotate-secret (rotateWebhookSecret) through app.inject on both
// engines: a new secret, shown in this answer only, with the old one still signing; 404; scopes.
// The answers every operation gives alike (405, 408, 413, 415, 429, 431, 500, 503) are tested
// for every operation of the document by the suites that read it (routing, media types, the
// socket and rate-limit suites, Prism); this file tests what is this operation's own.
import { describe, expect, it } from "vitest";
import { expectError, useTestApp } from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";
import { call, PLANT_SCOPES, registerEndpoint, scopedAuth } from "../helpers/webhook-endpoints.ts";

describe.each(storeEngines)("POST /webhook-endpoints/{id}/rotate-secret ($name)", (engine) => {
  const test = useTestApp(engine);

  it("when a secret is rotated, then 200 with a new whsec_ secret, shown nowhere else, and both sign during the overlap", async () => {
    const created = await registerEndpoint(test());
    const res = await call(test(), "POST", `/webhook-endpoints/${created.id}/rotate-secret`);
    expect(res.statusCode).toBe(200);
    const { secret } = res.json() as { secret: string };
    expect(res.json()).toEqual({ secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/) });
    expect(secret).not.toBe(created.secret);
    for (const path of [`/webhook-endpoints/${created.id}`, "/webhook-endpoints"]) {
      const shown = await call(test(), "GET", path);
      expect(shown.body).not.toContain(secret);
      expect(shown.body).not.toContain(created.secret);
    }
    // What the sender signs with, as the store hands it out.
    await call(test(), "POST", "/plants", { payload: '{"id":77123,"name":"Signed twice"}' });
    const claimed = await test().db.store.webhooks.claim({
      owner: "rotate-test",
      leaseMs: 5000,
      limit: 100,
      perEndpoint: 100,
      free: {},
    });
    const mine = claimed.find((d) => d.endpointId === created.id);
    expect(mine?.secrets.sort()).toEqual([secret, created.secret].sort());
    await test().db.store.webhooks.release(
      "rotate-test",
      claimed.map((d) => d.id),
    );
  });

  it("when the endpoint is unknown, then 404", async () => {
    expectError(await call(test(), "POST", "/webhook-endpoints/ep_0/rotate-secret"), 404);
  });

  it("when a body or a query is sent, then 400 and the secret is kept", async () => {
    const { id } = await registerEndpoint(test());
    expectError(await call(test(), "POST", `/webhook-endpoints/${id}/rotate-secret?now=1`), 400);
  });

  it("when the request has no token, then 401", async () => {
    const { id } = await registerEndpoint(test());
    const res = await call(test(), "POST", `/webhook-endpoints/${id}/rotate-secret`, {
      headers: {},
    });
    expectError(res, 401);
  });

  it("when the token lacks webhooks:manage, then 403", async () => {
    const { id } = await registerEndpoint(test());
    const headers = await scopedAuth(test(), PLANT_SCOPES);
    const res = await call(test(), "POST", `/webhook-endpoints/${id}/rotate-secret`, { headers });
    expectError(res, 403);
  });
});
