// Webhooks delivered by a real server to real receivers on 127.0.0.1, on every engine: what
// arrives is the document's webhook, signed as Standard Webhooks says (checked with the
// standard's own library), at least once, through failures, rotations and slow receivers.
import { Ajv2020 } from "ajv/dist/2020.js";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../src/openapi/document.ts";
import { waitUntilAsync } from "../helpers/auth.ts";
import { call, register } from "../helpers/server-calls.ts";
import { killLeftoverServers, type ServerProcess, startServer } from "../helpers/server-process.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";
import { eventually, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

const document = loadDocument() as unknown as {
  components: object;
  webhooks: Record<
    string,
    { post: { requestBody: { content: Record<string, { schema: object }> } } }
  >;
};
const ajv = new Ajv2020({ strict: false, validateFormats: false });
ajv.addSchema({ $id: "plants.yaml", components: document.components });
const webhookSchema =
  document.webhooks["/plant/webhook"]?.post.requestBody.content["application/json"]?.schema;
const validWebhook = ajv.compile({
  ...(webhookSchema as object),
  $ref: `plants.yaml${(webhookSchema as { $ref: string }).$ref}`,
});

const FAST = {
  PLANTSTORE_WEBHOOK_SEND: "true",
  PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "true",
  PLANTSTORE_WEBHOOK_RETRY_SCHEDULE: "1s,1s,1s",
  PLANTSTORE_WEBHOOK_TIMEOUT_MS: "2000",
  PLANTSTORE_WEBHOOK_LEASE_MS: "4000",
};

describe.each(storeEngines)("webhook delivery: $name", (engine) => {
  let db: TestStore;
  let server: ServerProcess;
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };
  beforeAll(async () => {
    db = await engine.create();
    server = await startServer({ databaseUrl: db.url, env: FAST });
  });
  afterEach(async () => {
    // Each test's endpoints go, so that the next test's creates are not sent to them.
    const listed = await call(server, "GET", "/webhook-endpoints");
    for (const { id } of listed.body as { id: string }[]) {
      await call(server, "DELETE", `/webhook-endpoints/${id}`);
    }
    for (const r of receivers.splice(0)) await r.close();
  });
  afterAll(async () => {
    await server?.stop();
    await killLeftoverServers();
    await db?.destroy();
  });

  it("when a plant is created, then every endpoint gets the document's webhook, signed, with the id exact; a replay, a 409 and a 400 send nothing; a delete and a new create send again", async () => {
    const a = await receiver();
    const b = await receiver();
    const [ea, eb] = [await register(server, a.url), await register(server, b.url)];
    const created = '{"id": 9007199254740993, "name": "Monstera", "tag": "tropical"}';
    expect((await call(server, "POST", "/plants", created)).status).toBe(200);
    expect((await call(server, "POST", "/plants", created)).status).toBe(200);
    expect(
      (await call(server, "POST", "/plants", { id: 9007199254740993n.toString(), name: "x" }))
        .status,
    ).toBe(400);
    expect(
      (await call(server, "POST", "/plants", '{"id": 9007199254740993, "name": "Ficus"}')).status,
    ).toBe(409);
    await eventually(
      () => a.received.length >= 1 && b.received.length >= 1,
      10_000,
      () => "first deliveries",
    );
    expect((await call(server, "DELETE", "/plants/9007199254740993")).status).toBe(204);
    expect(
      (await call(server, "POST", "/plants", '{"id": 9007199254740993, "name": "Monstera"}'))
        .status,
    ).toBe(200);
    await eventually(
      () => a.received.length >= 2 && b.received.length >= 2,
      10_000,
      () => "second deliveries",
    );
    // Delivered is final, and the log holds a delivery of every event recorded: once both of
    // each endpoint's are delivered, nothing more will be sent (the replay, 409 and 400 made none).
    await waitUntilAsync(async () => {
      for (const { id } of [ea, eb]) {
        const log = await call(server, "GET", `/webhook-endpoints/${id}/deliveries`);
        const deliveries = log.body as { status: string }[];
        if (deliveries.length < 2 || deliveries.some((d) => d.status !== "delivered")) return false;
      }
      return true;
    }, "each endpoint's deliveries are recorded as delivered");
    for (const [got, endpoint] of [
      [a, ea],
      [b, eb],
    ] as const) {
      expect(got.received.map((r) => r.body)).toEqual([
        '{"id":9007199254740993,"name":"Monstera","tag":"tropical"}',
        '{"id":9007199254740993,"name":"Monstera"}',
      ]);
      for (const { headers, body } of got.received) {
        expect(headers["content-type"]).toBe("application/json");
        expect(headers["webhook-id"]).toMatch(/^msg_/);
        expect(headers["webhook-event"]).toBe("newPlant");
        expect(validWebhook(JSON.parse(body)), JSON.stringify(validWebhook.errors)).toBe(true);
        expect(new Webhook(endpoint.secret).verify(body, headers)).toMatchObject({
          name: "Monstera",
        });
      }
      const log = await call(server, "GET", `/webhook-endpoints/${endpoint.id}/deliveries`);
      // The id exact in the text; JSON.parse below rounds it.
      expect(log.text).toContain('"plantId":9007199254740993,');
      expect(log.body).toEqual([
        expect.objectContaining({
          status: "delivered",
          attempts: 1,
          lastStatus: 200,
        }),
        expect.objectContaining({ status: "delivered", attempts: 1, lastStatus: 200 }),
      ]);
    }
  });

  it("when a receiver fails twice and then answers 200, then the third attempt delivers it, with the same webhook-id each time", async () => {
    const flaky = await receiver((n) => (n <= 2 ? 503 : 200));
    const endpoint = await register(server, flaky.url);
    expect((await call(server, "POST", "/plants", { id: 424242, name: "Aloe" })).status).toBe(200);
    await eventually(
      () => flaky.received.length >= 3,
      20_000,
      () => `${flaky.received.length} attempts`,
    );
    const ids = new Set(flaky.received.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    const logged = async () =>
      (
        (await call(server, "GET", `/webhook-endpoints/${endpoint.id}/deliveries`)).body as {
          status: string;
          attempts: number;
        }[]
      )[0];
    await waitUntilAsync(
      async () => (await logged())?.status === "delivered",
      "the delivery is recorded as delivered",
    );
    const last = await logged();
    // Delivered is final: the three attempts are all it got.
    expect(flaky.received).toHaveLength(3);
    expect(last).toMatchObject({ status: "delivered", attempts: 3, lastStatus: 200 });
  });

  it("when the secret is rotated, then messages carry two signatures and each secret verifies them", async () => {
    const got = await receiver();
    const endpoint = await register(server, got.url);
    const rotated = await call(server, "POST", `/webhook-endpoints/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const { secret } = rotated.body as { secret: string };
    expect((await call(server, "POST", "/plants", { id: 515151, name: "Sage" })).status).toBe(200);
    await eventually(
      () => got.received.length >= 1,
      10_000,
      () => "a delivery",
    );
    const [message] = got.received;
    expect(message?.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const key of [secret, endpoint.secret]) {
      expect(new Webhook(key).verify(message?.body ?? "", message?.headers ?? {})).toMatchObject({
        name: "Sage",
      });
    }
  });

  it("when one receiver never answers and another trickles, then a third still gets all its messages", async () => {
    const silent = await receiver(() => "handled");
    const trickle = await receiver((_n, response) => {
      response.writeHead(200);
      const drip = setInterval(() => response.write("."), 500);
      response.on("close", () => clearInterval(drip));
      return "handled";
    });
    const good = await receiver();
    await register(server, silent.url);
    await register(server, trickle.url);
    await register(server, good.url);
    for (let n = 0; n < 20; n++) {
      expect(
        (await call(server, "POST", "/plants", { id: 600_000 + n, name: `p${n}` })).status,
      ).toBe(200);
    }
    await eventually(
      () => good.received.length >= 20,
      10_000,
      () => `${good.received.length} of 20`,
    );
  });

  it("when registered without allowing private receivers, then loopback, localhost and http:// are refused with the reason", async () => {
    const strict = await startServer({
      databaseUrl: db.url,
      env: { PLANTSTORE_WEBHOOK_SEND: "true", PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "false" },
    });
    try {
      for (const [url, reason] of [
        ["https://127.0.0.1/", "loopback"],
        ["https://localhost/", "loopback"],
        ["https://[::1]/", "loopback"],
        ["https://169.254.169.254/", "link-local"],
        ["https://10.1.2.3/", "private"],
        ["http://hooks.example.com/", "must use https"],
      ]) {
        const answer = await call(strict, "POST", "/webhook-endpoints", { url });
        expect(answer.status, url).toBe(400);
        expect((answer.body as { message: string }).message, url).toContain(reason);
      }
    } finally {
      await strict.stop();
    }
  });

  it("when the server is SIGKILLed under creates and restarted, then every acknowledged create is delivered at least once", async () => {
    const got = await receiver();
    await register(server, got.url);
    const acknowledged: number[] = [];
    const creating = (async () => {
      for (let n = 0; n < 10_000; n++) {
        const id = 700_000 + n;
        try {
          if ((await call(server, "POST", "/plants", { id, name: `k${n}` })).status === 200)
            acknowledged.push(id);
        } catch {
          return;
        }
      }
    })();
    await eventually(
      () => acknowledged.length >= 100,
      20_000,
      () => `${acknowledged.length} creates`,
    );
    await server.kill();
    await creating;
    server = await startServer({ databaseUrl: db.url, env: FAST });
    const delivered = () =>
      new Set(got.received.map((r) => (JSON.parse(r.body) as { id: number }).id));
    await eventually(
      () => acknowledged.every((id) => delivered().has(id)),
      30_000,
      () =>
        `${acknowledged.filter((id) => !delivered().has(id)).length} of ${acknowledged.length} missing`,
    );
    const duplicates = got.received.length - delivered().size;
    console.info(
      `${engine.name}: ${acknowledged.length} acknowledged, ${duplicates} delivered twice`,
    );
  }, 120_000);
});
