// PATCH /webhook-endpoints/{id} (updateWebhookEndpoint) through app.inject on both engines: a
// merge patch of the events an endpoint is sent and of its description, stored as answered; the
// bodies it refuses; 404; scopes; the sizes and media types it takes. What an unsubscribe does
// to deliveries already queued, claimed ones included, is test/store/webhook-store.test.ts's.
// 401, 405, 408, 429, 431, 500 and 503 are the shared answers of every operation, covered once
// for all by the suites that read the document.
import { describe, expect, it } from "vitest";
import { EVENT_UNSUBSCRIBED } from "../../src/store/webhooks.ts";
import { AUTH, expectError, plantJson, postPlant, uniqueId, useTestApp } from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";
import {
  call,
  PLANT_SCOPES,
  RECEIVER_URL,
  type RegisteredEndpoint,
  registerEndpoint,
  scopedAuth,
} from "../helpers/webhook-endpoints.ts";

const MERGE_PATCH = "application/merge-patch+json";

describe.each(storeEngines)(
  "PATCH /webhook-endpoints/{id} (updateWebhookEndpoint) ($name)",
  (engine) => {
    const test = useTestApp(engine);
    const patch = (
      id: string,
      payload: string,
      headers: Record<string, string> = AUTH,
      type = MERGE_PATCH,
      query = "",
    ) =>
      test().app.inject({
        method: "PATCH",
        url: `/webhook-endpoints/${id}${query}`,
        headers: { ...headers, "content-type": type },
        payload,
      });
    const stored = async (id: string) => test().db.store.webhooks.getEndpoint(id);
    const shown = ({ secret: _secret, ...endpoint }: RegisteredEndpoint) => endpoint;

    it("when the events are sent, then 200 with the endpoint as stored: those events, the rest kept", async () => {
      const created = await registerEndpoint(test(), { description: "Inventory" });
      const res = await patch(created.id, '{"events":["plantDeleted"]}');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ...shown(created), events: ["plantDeleted"] });
      expect((await stored(created.id))?.events).toEqual(["plantDeleted"]);
      expect((await call(test(), "GET", `/webhook-endpoints/${created.id}`)).json()).toEqual(
        res.json(),
      );
    });

    it("when the events are listed out of order, then they are stored sorted", async () => {
      const created = await registerEndpoint(test(), { events: ["newPlant"] });
      const res = await patch(created.id, '{"events":["plantDeleted","newPlant"]}');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().events).toEqual(["newPlant", "plantDeleted"]);
      expect((await stored(created.id))?.events).toEqual(["newPlant", "plantDeleted"]);
    });

    it("when an event is dropped, then its deliveries still pending fail, saying why, and those of the events kept stay pending", async () => {
      const created = await registerEndpoint(test());
      const id = uniqueId();
      expect((await postPlant(test().app, plantJson(id, "Fern"))).statusCode).toBe(200);
      expect((await call(test(), "DELETE", `/plants/${id}`)).statusCode).toBe(204);
      const res = await patch(created.id, '{"events":["plantDeleted"]}');
      expect(res.statusCode, res.body).toBe(200);
      const log = await call(test(), "GET", `/webhook-endpoints/${created.id}/deliveries`);
      const deliveries = log.json() as {
        event: string;
        status: string;
        lastError: string | null;
      }[];
      expect(
        deliveries.map(({ event, status, lastError }) => ({ event, status, lastError })),
      ).toEqual(
        expect.arrayContaining([
          { event: "newPlant", status: "failed", lastError: EVENT_UNSUBSCRIBED },
          { event: "plantDeleted", status: "pending", lastError: null },
        ]),
      );
      expect(deliveries).toHaveLength(2);
    });

    it("when the description is sent, then it replaces the stored one and the events are kept; null removes it", async () => {
      const created = await registerEndpoint(test(), { events: ["plantDeleted"] });
      const renamed = await patch(created.id, '{"description":"Inventory sync (plants)"}');
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json()).toEqual({ ...shown(created), description: "Inventory sync (plants)" });
      expect(await stored(created.id)).toMatchObject({
        description: "Inventory sync (plants)",
        events: ["plantDeleted"],
      });
      const removed = await patch(created.id, '{"description":null}');
      expect(removed.json()).toEqual({ ...shown(created), description: null });
      expect((await stored(created.id))?.description).toBeNull();
    });

    it.each([MERGE_PATCH, "application/json", "application/merge-patch+json; charset=utf-8"])(
      "when the body is sent as %s, then it is read as a merge patch",
      async (type) => {
        const created = await registerEndpoint(test());
        const res = await patch(created.id, '{"events":["newPlant"]}', AUTH, type);
        expect(res.statusCode, res.body).toBe(200);
        expect((await stored(created.id))?.events).toEqual(["newPlant"]);
      },
    );

    it.each([
      ['{"events":["plantEaten"]}', /^events\.0 must be one of "newPlant", "plantDeleted"$/],
      [
        '{"events":["newPlant","plantEaten"]}',
        /^events\.1 must be one of "newPlant", "plantDeleted"$/,
      ],
      ['{"events":[]}', /^events must have at least 1 item$/],
      ['{"events":["newPlant","newPlant"]}', /^events must not have duplicate items/],
      ['{"events":"newPlant"}', /events/],
      ['{"events":null}', /events/],
      ['{"description":5}', /description/],
      [`{"description":"${"d".repeat(1025)}"}`, /description/],
      ["{}", /at least 1 property/],
      ['{"url":"https://93.184.215.15/other"}', /unknown property "url"/],
      ['{"secret":"whsec_AAAA"}', /unknown property "secret"/],
      ["[]", /JSON object/],
      ['{"events":', /not valid JSON/],
      ["", /request body is required/],
    ])(
      "when the body is %s, then 400 saying why, and the endpoint is unchanged",
      async (body, why) => {
        const created = await registerEndpoint(test(), {
          description: "Kept",
          events: ["plantDeleted"],
        });
        expectError(await patch(created.id, body), 400, why);
        expect(await stored(created.id)).toMatchObject({
          url: RECEIVER_URL,
          description: "Kept",
          events: ["plantDeleted"],
        });
      },
    );

    it("when a query parameter is sent, then 400 and the endpoint is unchanged", async () => {
      const created = await registerEndpoint(test());
      expectError(await patch(created.id, '{"events":[]}', AUTH, MERGE_PATCH, "?force=1"), 400);
      expect((await stored(created.id))?.events).toEqual(created.events);
    });

    it("when no endpoint is registered under the id, then 404 naming it, and none is made", async () => {
      const before = await test().db.store.webhooks.listEndpoints({ limit: 100 });
      expectError(await patch("ep_0", '{"events":["plantDeleted"]}'), 404, /ep_0/);
      const { id } = await registerEndpoint(test());
      expect((await call(test(), "DELETE", `/webhook-endpoints/${id}`)).statusCode).toBe(204);
      expectError(await patch(id, '{"description":"late"}'), 404, new RegExp(id));
      const after = await test().db.store.webhooks.listEndpoints({ limit: 100 });
      expect(after.endpoints.length).toBe(before.endpoints.length);
    });

    it("when the request has no token, then 401 and the endpoint is unchanged", async () => {
      const created = await registerEndpoint(test());
      expectError(await patch(created.id, '{"events":[]}', {}), 401);
      expect((await stored(created.id))?.events).toEqual(created.events);
    });

    it("when the token lacks webhooks:manage, then 403 naming it, and the endpoint is unchanged", async () => {
      const created = await registerEndpoint(test());
      const headers = await scopedAuth(test(), PLANT_SCOPES);
      expectError(await patch(created.id, '{"events":[]}', headers), 403, /webhooks:manage/);
      expect((await stored(created.id))?.events).toEqual(created.events);
    });

    it("when the token carries webhooks:manage only, then 200", async () => {
      const created = await registerEndpoint(test());
      const headers = await scopedAuth(test(), ["webhooks:manage"]);
      const res = await patch(created.id, '{"events":["newPlant"]}', headers);
      expect(res.statusCode, res.body).toBe(200);
    });

    it("when the body is over 64 KiB, then 413 and the endpoint is unchanged", async () => {
      const created = await registerEndpoint(test(), { description: "Kept" });
      const res = await patch(created.id, JSON.stringify({ description: "x".repeat(70_000) }));
      expectError(res, 413);
      expect((await stored(created.id))?.description).toBe("Kept");
    });

    it.each(["text/plain", "application/x-www-form-urlencoded"])(
      "when the body is sent as %s, then 415 naming both accepted types, and the endpoint is unchanged",
      async (type) => {
        const created = await registerEndpoint(test());
        const res = await patch(created.id, '{"events":[]}', AUTH, type);
        expectError(
          res,
          415,
          new RegExp(
            `^the content type must be application/merge-patch\\+json or application/json, got "${type}"$`,
          ),
        );
        expect((await stored(created.id))?.events).toEqual(created.events);
      },
    );
  },
);
