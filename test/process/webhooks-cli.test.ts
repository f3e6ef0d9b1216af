// `plantstore webhooks add|list|remove|rotate` against a real store, as an operator runs it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_UNSUBSCRIBED } from "../../src/store/webhooks.ts";
import { runCli } from "../helpers/cli.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";

describe("the webhooks command line, before any database is opened", () => {
  it.each([
    [["webhooks", "add"], /expected a URL/],
    [["webhooks", "remove"], /one endpoint ID/],
    [["webhooks", "add", "https://93.184.215.14/hook", "--events"], /expected events/],
    [["webhooks", "subscribe", "ep_1"], /one endpoint ID and its events/],
    [["webhooks", "purge"], /unknown webhooks command "purge"/],
  ])("when run with %j, then it exits 2 with the reason and the usage", async (args, reason) => {
    const result = await runCli("sqlite:/nonexistent-dir/never-opened.db", args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).toContain("plantstore webhooks add URL");
  });
});

describe.each(storeEngines)("webhook endpoints from the command line ($name)", (engine) => {
  let db: TestStore;
  beforeAll(async () => {
    db = await engine.create();
  });
  afterAll(async () => {
    await db.destroy();
  });

  it("when an endpoint is added, listed, rotated and removed, then the store has it and then has not", async () => {
    const added = await runCli(db.url, [
      "webhooks",
      "add",
      "https://93.184.215.14/hook",
      "Inventory",
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^whsec_\S+\n$/);
    const id = /endpoint (ep_[0-9a-f]+)/.exec(added.stderr)?.[1] ?? "";
    expect((await db.store.webhooks.getEndpoint(id))?.description).toBe("Inventory");

    const listed = await runCli(db.url, ["webhooks", "list"]);
    expect(listed.stdout).toContain(`${id}\tenabled\t`);
    expect(listed.stdout).toContain("https://93.184.215.14/hook\tInventory");

    const rotated = await runCli(db.url, ["webhooks", "rotate", id]);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/^whsec_\S+\n$/);
    expect(rotated.stdout).not.toBe(added.stdout);

    expect((await runCli(db.url, ["webhooks", "remove", id])).code).toBe(0);
    expect(await db.store.webhooks.getEndpoint(id)).toBeUndefined();
    const again = await runCli(db.url, ["webhooks", "remove", id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no webhook endpoint ${id}`);
  });

  it("when an endpoint is added for one event and subscribed to another, then it is sent those it names; an event the API does not send is refused", async () => {
    const added = await runCli(db.url, [
      "webhooks",
      "add",
      "https://93.184.215.14/events",
      "--events",
      "plantDeleted",
    ]);
    expect(added.code, added.stderr).toBe(0);
    const id = /endpoint (ep_[0-9a-f]+)/.exec(added.stderr)?.[1] ?? "";
    expect((await db.store.webhooks.getEndpoint(id))?.events).toEqual(["plantDeleted"]);
    expect((await runCli(db.url, ["webhooks", "list"])).stdout).toMatch(
      new RegExp(`^${id}\t.*\tplantDeleted$`, "m"),
    );

    const subscribed = await runCli(db.url, ["webhooks", "subscribe", id, "newPlant,plantDeleted"]);
    expect(subscribed.code, subscribed.stderr).toBe(0);
    expect(subscribed.stdout).toBe(`webhook endpoint ${id} is sent newPlant, plantDeleted\n`);
    expect((await db.store.webhooks.getEndpoint(id))?.events).toEqual(["newPlant", "plantDeleted"]);

    const unknown = await runCli(db.url, ["webhooks", "subscribe", id, "plantRenamed"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      "plantRenamed is not an event this API sends (it sends newPlant, plantDeleted)",
    );
    expect((await db.store.webhooks.getEndpoint(id))?.events).toEqual(["newPlant", "plantDeleted"]);
    const refused = await runCli(db.url, [
      "webhooks",
      "add",
      "https://93.184.215.14/other",
      "--events",
      "newPlant,plantRenamed",
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("plantRenamed is not an event this API sends");
  });

  it("when subscribe drops an event, then the endpoint's deliveries of it still pending fail, saying why", async () => {
    const { id } = await db.store.webhooks.createEndpoint({
      url: "https://93.184.215.14/dropping",
      description: null,
      events: ["newPlant", "plantDeleted"],
    });
    await db.store.resources.plants.create({ id: 424242n, name: "Queued" });
    const dropped = await runCli(db.url, ["webhooks", "subscribe", id, "plantDeleted"]);
    expect(dropped.code, dropped.stderr).toBe(0);
    const log = await db.store.webhooks.listDeliveries(id, { limit: 10 });
    expect(log?.deliveries.map((d) => [d.event, d.plantId, d.status, d.lastError])).toEqual([
      ["newPlant", 424242n, "failed", EVENT_UNSUBSCRIBED],
    ]);
  });

  it("when the URL is on a loopback address, then add refuses it with the reason and the setting that allows it", async () => {
    const refused = await runCli(db.url, ["webhooks", "add", "https://127.0.0.1/hook"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "plantstore: the webhook URL's host resolves to 127.0.0.1, a loopback address (it is allowed only with PLANTSTORE_WEBHOOK_ALLOW_PRIVATE=true, for local receivers and tests)\n",
    );
    const { endpoints } = await db.store.webhooks.listEndpoints({ after: undefined, limit: 100 });
    expect(endpoints.filter((e) => e.url === "https://127.0.0.1/hook")).toEqual([]);
  });

  it("when a description holds a newline and an escape sequence, then list escapes them and forges no row; --json gives the values as they are", async () => {
    const forged =
      "ok\nep_000000000000forged\tenabled\t2026-01-01T00:00:00Z\thttps://attacker.example/\u001b[2J";
    const added = await runCli(db.url, ["webhooks", "add", "https://93.184.215.14/forge", forged]);
    expect(added.code, added.stderr).toBe(0);
    const listed = await runCli(db.url, ["webhooks", "list"]);
    expect(listed.stdout).not.toContain("\u001b");
    expect(listed.stdout.split("\n").some((line) => line.startsWith("ep_000000000000forged"))).toBe(
      false,
    );
    expect(listed.stdout).toContain("ok\\nep_000000000000forged\\tenabled");
    const json = await runCli(db.url, ["webhooks", "list", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as {
      url: string;
      description: string;
      enabled: boolean;
    }[];
    expect(rows.find((row) => row.url === "https://93.184.215.14/forge")).toMatchObject({
      description: forged,
      enabled: true,
    });
  });

  it("when the store holds PLANTSTORE_WEBHOOK_MAX_ENDPOINTS endpoints, then add refuses another, saying so", async () => {
    const full = await engine.create();
    try {
      const env = { PLANTSTORE_WEBHOOK_MAX_ENDPOINTS: "1" };
      expect(
        (await runCli(full.url, ["webhooks", "add", "https://93.184.215.14/a"], env)).code,
      ).toBe(0);
      const refused = await runCli(full.url, ["webhooks", "add", "https://93.184.215.14/b"], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("the store already holds 1 webhook endpoints");
    } finally {
      await full.destroy();
    }
  });
});
