// Our signatures against the standard's own library (standardwebhooks), both ways, and the
// client's verifyWebhook: what it accepts, what it refuses, and the id exact as a bigint.
import { readFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";
import { describe, expect, expectTypeOf, it } from "vitest";
import { parse } from "yaml";
import { eventTable, type webhookEvents, webhookTable } from "../../generated/plants.ts";
import { eventTableOf, operationTables } from "../../scripts/generate.ts";
import { type DescribedEvent, eventBody } from "../../src/client/event-body.ts";
import { fromJson, type Location } from "../../src/client/exact-json.ts";
import { verifyWebhook, WebhookVerificationError } from "../../src/client/webhooks.ts";
import { newWebhookSecret } from "../../src/store/webhooks.ts";
import { signatureHeaders } from "../../src/webhooks/signature.ts";

const nowSeconds = () => Math.floor(Date.now() / 1000);

function signed(
  body: string,
  secrets: readonly string[],
  timestampSeconds = nowSeconds(),
  event = "newPlant",
) {
  const id = `msg_${crypto.randomUUID()}`;
  const headers = signatureHeaders({ id, timestampSeconds, body, secrets });
  return { body, headers: { ...headers, "webhook-event": event } };
}

describe("signatureHeaders", () => {
  it("when signed with one secret, then standardwebhooks verifies it", () => {
    const secret = newWebhookSecret();
    const { body, headers } = signed('{"id":1,"name":"Monstera"}', [secret]);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual({ id: 1, name: "Monstera" });
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it("when signed with two secrets (a rotation), then either secret alone verifies it", () => {
    const [old, fresh] = [newWebhookSecret(), newWebhookSecret()];
    const { body, headers } = signed('{"id":2,"name":"Fern"}', [old, fresh]);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const secret of [old, fresh]) {
      expect(new Webhook(secret).verify(body, { ...headers })).toEqual({ id: 2, name: "Fern" });
      expect(verifyWebhook(body, headers, secret).body).toEqual({ id: 2n, name: "Fern" });
    }
  });

  it("when there is no secret to sign with, then signing is refused rather than sending unsigned", () => {
    expect(() =>
      signatureHeaders({ id: "msg_1", timestampSeconds: 1, body: "{}", secrets: [] }),
    ).toThrow(new TypeError("a webhook is signed with at least one secret"));
  });

  it("when a new secret is made, then it is whsec_ and 24 random bytes", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe("verifyWebhook", () => {
  const secret = newWebhookSecret();

  it("when the delivery is ours, then it returns the event, tag included", () => {
    const { body, headers } = signed('{"id":7,"name":"Aloe","tag":"succulent"}', [secret]);
    expect(verifyWebhook(body, headers, secret).body).toEqual({
      id: 7n,
      name: "Aloe",
      tag: "succulent",
    });
    expect(
      verifyWebhook(new TextEncoder().encode(body), new Headers(headers), [secret]).body,
    ).toEqual({
      id: 7n,
      name: "Aloe",
      tag: "succulent",
    });
  });

  it("when the id is 2^53 + 1, then it comes back exactly as a bigint", () => {
    const { body, headers } = signed('{"id":9007199254740993,"name":"Big"}', [secret]);
    expect(verifyWebhook(body, headers, secret).body.id).toBe(9007199254740993n);
  });

  it("when the body has members this client does not know (a newer server's), then every one is returned as sent", () => {
    const text =
      '{"id":9007199254740993,"name":"Pothos","potId":12,"care":{"light":"low","waterDays":[3,7]},"retired":null}';
    const { body, headers } = signed(text, [secret]);
    expect(verifyWebhook(body, headers, secret).body).toEqual({
      id: 9007199254740993n,
      name: "Pothos",
      potId: 12,
      care: { light: "low", waterDays: [3, 7] },
      retired: null,
    });
  });

  it("when an int64 member is added to the webhook's schema in the YAML, then generate's table names it and the body is read with it exact", () => {
    const yaml = readFileSync(new URL("../../openapi/plants.yaml", import.meta.url), "utf8");
    // The table generated/plants.ts holds is the one generate makes from the document as it is…
    expect(operationTables(parse(yaml)).webhookTable).toEqual(webhookTable);
    // …and with a member added, it names that member too.
    const document = parse(yaml) as {
      components: { schemas: { NewPlant: { allOf: { properties?: Record<string, unknown> }[] } } };
    };
    const own = document.components.schemas.NewPlant.allOf.find((part) => part.properties);
    if (own?.properties === undefined) throw new Error("NewPlant has no member of its own");
    own.properties["potId"] = { type: "integer", format: "int64" };
    const { webhookTable: added } = operationTables(document) as {
      webhookTable: Record<string, { int64InBody: Location[] }>;
    };
    const locations = added["newPlantWebhook"]?.int64InBody ?? [];
    expect(locations).toContainEqual(["potId"]);
    expect(fromJson('{"id":1,"name":"x","potId":9007199254740993}', locations)).toEqual({
      id: 1n,
      name: "x",
      potId: 9007199254740993n,
    });
  });

  it("when a webhook's schema is closed in the YAML, then generate's table lists its members and a body with another is refused, naming it; while it is open, any is kept", () => {
    const yaml = readFileSync(new URL("../../openapi/plants.yaml", import.meta.url), "utf8");
    // The table generated/plants.ts holds is the one generate makes from the document as it is…
    expect(eventTableOf(parse(yaml))).toEqual(eventTable);
    const body = new TextEncoder().encode('{"id":9007199254740993,"name":"Fern"}');
    expect(eventBody("plantDeleted", body)).toEqual({ id: 9007199254740993n, name: "Fern" });
    // …and with DeletedPlant closed, it allows its id alone.
    for (const closing of [
      { additionalProperties: false },
      { unevaluatedProperties: false },
    ] as const) {
      const document = parse(yaml) as { components: { schemas: Record<string, object> } };
      document.components.schemas["DeletedPlant"] = {
        ...document.components.schemas["DeletedPlant"],
        ...closing,
      };
      const table = eventTableOf(document) as Record<string, DescribedEvent>;
      expect(table["plantDeleted"]?.members).toEqual(["id"]);
      expect(table["newPlant"]?.members).toBeNull();
      expect(() => eventBody("plantDeleted", body, table)).toThrow(
        new WebhookVerificationError(
          "the webhook body is not a plantDeleted event: its schema allows no member name",
        ),
      );
      const exact = new TextEncoder().encode('{"id":9007199254740993}');
      expect(eventBody("plantDeleted", exact, table)).toEqual({ id: 9007199254740993n });
    }
  });

  it("when a closed schema is made of allOf parts, then unevaluatedProperties allows every part's members and additionalProperties its own alone", () => {
    const yaml = readFileSync(new URL("../../openapi/plants.yaml", import.meta.url), "utf8");
    const closed = (closing: object) => {
      const document = parse(yaml) as { components: { schemas: Record<string, object> } };
      document.components.schemas["NewPlant"] = {
        ...document.components.schemas["NewPlant"],
        ...closing,
      };
      return (eventTableOf(document) as Record<string, DescribedEvent>)["newPlant"]?.members;
    };
    expect([...(closed({ unevaluatedProperties: false }) ?? [])].sort()).toEqual([
      "id",
      "name",
      "tag",
    ]);
    expect(closed({ additionalProperties: false })).toEqual([]);
    expect(closed({ additionalProperties: false, patternProperties: { "^x-": {} } })).toBeNull();
  });

  it("when the header names are in another case, then they are found", () => {
    const { body, headers } = signed('{"id":8,"name":"Cactus"}', [secret]);
    const shouted = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]),
    );
    expect(verifyWebhook(body, shouted, secret).body).toEqual({ id: 8n, name: "Cactus" });
  });

  it("when the body was tampered with, then it is refused", () => {
    const { headers } = signed('{"id":1,"name":"Monstera"}', [secret]);
    expect(() => verifyWebhook('{"id":2,"name":"Monstera"}', headers, secret)).toThrow(
      /no webhook-signature matches/,
    );
  });

  it("when it was signed with another secret, then it is refused", () => {
    const { body, headers } = signed('{"id":1,"name":"Monstera"}', [newWebhookSecret()]);
    expect(() => verifyWebhook(body, headers, secret)).toThrow(WebhookVerificationError);
  });

  it.each(["webhook-id", "webhook-timestamp", "webhook-signature", "webhook-event"] as const)(
    "when the %s header is missing, then it is refused, naming it",
    (name) => {
      const { body, headers } = signed('{"id":1,"name":"Monstera"}', [secret]);
      const { [name]: _gone, ...rest } = headers;
      expect(() => verifyWebhook(body, rest, secret)).toThrow(`the ${name} header is missing`);
    },
  );

  it.each([
    ["6 minutes old", -360, /too old/],
    ["6 minutes ahead", 360, /in the future/],
  ])("when the timestamp is %s, then it is refused", (_when, offset, message) => {
    const { body, headers } = signed('{"id":1,"name":"Monstera"}', [secret], nowSeconds() + offset);
    expect(() => verifyWebhook(body, headers, secret)).toThrow(message);
  });

  it("when the timestamp is 4 minutes off either way, then it is accepted", () => {
    for (const offset of [-240, 240]) {
      const { body, headers } = signed(
        '{"id":1,"name":"Monstera"}',
        [secret],
        nowSeconds() + offset,
      );
      expect(verifyWebhook(body, headers, secret).body.id).toBe(1n);
    }
  });

  it("when a signature has the wrong length, then it is refused (and nothing throws else)", () => {
    const { body, headers } = signed('{"id":1,"name":"Monstera"}', [secret]);
    const short = headers["webhook-signature"].slice(0, -4);
    const long = `${headers["webhook-signature"]}AAAA`;
    for (const signature of [short, long, "v1,", "v2,abc"]) {
      expect(() =>
        verifyWebhook(body, { ...headers, "webhook-signature": signature }, secret),
      ).toThrow(/no webhook-signature matches/);
    }
  });

  it("when a plant-deleted event arrives, then it is read as that event, its id exact, and the type narrows by the event's name", () => {
    const { body, headers } = signed(
      '{"id":9007199254740993}',
      [secret],
      nowSeconds(),
      "plantDeleted",
    );
    const delivery = verifyWebhook(body, headers, secret);
    expect(delivery).toEqual({
      event: "plantDeleted",
      id: headers["webhook-id"],
      body: { id: 9007199254740993n },
    });
    if (delivery.event === "plantDeleted") {
      const id: bigint = delivery.body.id;
      expect(id).toBe(9007199254740993n);
    }
  });

  // Checked by tsc (npm run typecheck covers test/), not at run time: each branch of a check of
  // `event` sees that event's body alone. Were the union not discriminated by `event`, both
  // branches' bodies would be the union, and the newPlant branch's `name` would not compile.
  it("when a delivery's event is checked, then its body's type is that event's payload alone", () => {
    const { body, headers } = signed('{"id":5}', [secret], nowSeconds(), "plantDeleted");
    const delivery = verifyWebhook(body, headers, secret);
    expectTypeOf(delivery.event).toEqualTypeOf<"newPlant" | "plantDeleted">();
    if (delivery.event === "plantDeleted") {
      expectTypeOf(delivery.body).toEqualTypeOf<
        webhookEvents["plantDeleted"] & { readonly [member: string]: unknown }
      >();
      expectTypeOf(delivery.body.id).toEqualTypeOf<bigint>();
      // @ts-expect-error name is the new plant's: a deleted plant's body has no such member
      const name: string = delivery.body["name"];
      expect(name).toBeUndefined();
    } else {
      expectTypeOf(delivery.event).toEqualTypeOf<"newPlant">();
      const name: string = delivery.body.name;
      expect.unreachable(`a newPlant named ${name}`);
    }
  });

  it("when the event is one this client does not know, then it is refused, naming it", () => {
    const { body, headers } = signed('{"id":1}', [secret], nowSeconds(), "plantEaten");
    expect(() => verifyWebhook(body, headers, secret)).toThrow(
      /a plantEaten event, which this client does not know \(it knows newPlant, plantDeleted\)/,
    );
  });

  it("when the body is signed but is not a new-plant event, then it is refused", () => {
    for (const text of ['{"id":1.5,"name":"x"}', '{"id":"1","name":"x"}', '{"id":1}', "[1]", "{"]) {
      const { body, headers } = signed(text, [secret]);
      expect(() => verifyWebhook(body, headers, secret)).toThrow(WebhookVerificationError);
    }
  });

  it("when standardwebhooks signs a delivery, then verifyWebhook accepts it", () => {
    const body = '{"id":9007199254740993,"name":"Interop"}';
    const id = "msg_interop";
    const at = new Date();
    const signature = new Webhook(secret).sign(id, at, body);
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature,
      "webhook-event": "newPlant",
    };
    expect(verifyWebhook(body, headers, secret).body).toEqual({
      id: 9007199254740993n,
      name: "Interop",
    });
  });

  it("when the clock is given, then the tolerance is measured from it", () => {
    const { body, headers } = signed('{"id":1,"name":"Monstera"}', [secret], 1_000_000);
    const now = () => 1_000_000 * 1000 + 20_000;
    expect(verifyWebhook(body, headers, secret, { now }).body.id).toBe(1n);
    expect(() => verifyWebhook(body, headers, secret, { now, toleranceSeconds: 10 })).toThrow(
      /too old/,
    );
  });
});
