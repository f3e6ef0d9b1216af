// The conformance run's webhook checks (--webhook-receiver) against the real server of each
// engine, where every message passes, and against deployments whose messages are wrong: signed
// with another secret than the endpoint was given, with the plant's id rounded to a double, or
// named as another event or one the document does not declare.
// And a run that may write never messages a registered subscriber unless --allow-webhooks.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type ConformanceOptions, DEFAULT_OPTIONS } from "../../src/conformance/options.ts";
import type { RunResult } from "../../src/conformance/results.ts";
import { runConformance } from "../../src/conformance/run.ts";
import { TOKEN } from "../helpers/app.ts";
import { failures, useServerOn } from "../helpers/conformance-run.ts";
import { sqliteEngine, storeEngines } from "../helpers/stores.ts";
import { startReceiver } from "../helpers/webhook-receiver.ts";
import { type Alter, startWebhookRelay } from "../helpers/webhook-relay.ts";

const SENDING = {
  PLANTSTORE_WEBHOOK_SEND: "true",
  PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "true",
  PLANTSTORE_WEBHOOK_RETRY_SCHEDULE: "1s,1s,1s",
  PLANTSTORE_WEBHOOK_TIMEOUT_MS: "2000",
};

// Only the webhook step and what it needs: the other steps are the other suites' business.
const options = (baseUrl: string, more: Partial<ConformanceOptions> = {}): ConformanceOptions => ({
  ...DEFAULT_OPTIONS,
  baseUrl,
  token: TOKEN,
  allowWrites: true,
  operations: ["getHealth"],
  webhookReceiver: { host: "127.0.0.1", port: 0 },
  ...more,
});

const endpointsAt = async (url: string): Promise<unknown[]> => {
  const answer = await fetch(`${url}/webhook-endpoints`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return (await answer.json()) as unknown[];
};

describe.each(storeEngines)("conformance of a healthy server's webhooks ($name)", (engine) => {
  const { database, url } = useServerOn(engine, SENDING);

  it("when the run has a webhook receiver, then each declared event's message passes and the endpoint and plants are gone", async () => {
    const run = await runConformance(options(url()));

    expect(failures(run)).toEqual([]);
    const messages = run.checks.filter((check) => check.received === true);
    expect(messages.length).toBeGreaterThan(0);
    expect(new Set(messages.map((check) => check.operationId))).toEqual(
      new Set(["newPlantWebhook", "plantDeletedWebhook"]),
    );
    expect(run.checks.map((check) => check.name)).toContain("delete the run's webhook endpoint");
    expect(await endpointsAt(url())).toEqual([]);
    const { from, to } = DEFAULT_OPTIONS.idRange;
    const left = await database().store.resources.plants.list({
      after: from - 1n,
      limit: 10,
      maxTextBytes: 1e6,
    });
    expect(left.rows.filter((plant) => plant.id <= to)).toEqual([]);
  });
});

describe("conformance of a deployment whose webhook messages are wrong", () => {
  const { url } = useServerOn(sqliteEngine, SENDING);

  const runThrough = async (alter: Alter): Promise<RunResult> => {
    const relay = await startWebhookRelay(url(), "/webhook-endpoints", alter);
    try {
      return await runConformance(options(relay.url));
    } finally {
      await relay.close();
    }
  };

  it("when messages are signed with another secret than the endpoint was given, then the run fails naming the signature", async () => {
    const other = `whsec_${randomBytes(24).toString("base64")}`;

    const run = await runThrough((body) => ({ body, secret: other }));

    expect(failures(run).join("\n")).toMatch(
      /newPlantWebhook message msg_\w+: the signature does not verify with the endpoint's secret/,
    );
  });

  it("when a message's id is rounded to a double, then the run fails naming the id it wrote", async () => {
    const run = await runThrough((body, secret) => ({
      body: JSON.stringify(JSON.parse(body)),
      secret,
    }));

    const { from } = DEFAULT_OPTIONS.idRange;
    expect(failures(run).join("\n")).toContain(
      `no newPlant message for id ${from} within ${DEFAULT_OPTIONS.timeoutMs} ms; the messages carried ids ${Number(from)}`,
    );
  });

  it("when a create's message is named as the delete's event, then the run fails: no write declaring that event made it", async () => {
    const run = await runThrough((body, secret, event) => ({
      body,
      secret,
      event: event === "newPlant" ? "plantDeleted" : event,
    }));

    const { from } = DEFAULT_OPTIONS.idRange;
    const failed = failures(run).join("\n");
    expect(failed).toContain(`plantDeletedWebhook message msg_`);
    expect(failed).toContain(`sent for id ${from}, which no write declaring plantDeleted made`);
    expect(failed).toContain(`no newPlant message for id ${from}`);
  });

  it("when a message names an event the document does not declare, then the run fails saying so", async () => {
    const run = await runThrough((body, secret) => ({ body, secret, event: "plantRenamed" }));

    expect(failures(run).join("\n")).toMatch(
      /\(webhooks\) message msg_\w+: the message is none of the events the document declares/,
    );
  });
});

describe("conformance writes while a subscriber is registered", () => {
  const { database, url } = useServerOn(sqliteEngine, SENDING);

  it("when an endpoint is registered, then a run that may write sends no write and says why, unless --allow-webhooks", async () => {
    const subscriber = await startReceiver();
    try {
      const registered = await fetch(`${url()}/webhook-endpoints`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ url: subscriber.url }),
      });
      expect(registered.status).toBe(201);
      const { webhookReceiver: _none, ...plain } = { ...options(url()), operations: [] };

      const refused = await runConformance({ ...plain, maxRequests: 60 });

      expect(refused.writes).toBe(0);
      expect(refused.notes.join("\n")).toContain(
        "no write was sent: webhook endpoints are registered at the deployment, and what the run writes would be sent to them as webhooks; give --allow-webhooks to write anyway",
      );
      const { from, to } = DEFAULT_OPTIONS.idRange;
      const stored = await database().store.resources.plants.list({
        after: from - 1n,
        limit: 10,
        maxTextBytes: 1e6,
      });
      expect(stored.rows.filter((plant) => plant.id <= to)).toEqual([]);
      expect(subscriber.received).toEqual([]);

      const allowed = await runConformance({ ...plain, allowWebhooks: true, maxRequests: 60 });

      expect(allowed.writes).toBeGreaterThan(0);
    } finally {
      await subscriber.close();
    }
  });
});
