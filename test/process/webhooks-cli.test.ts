// `plantstore webhooks add|list|remove|rotate` against a real store, as an operator runs it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";

describe("the webhooks command line, before any database is opened", () => {
  it.each([
    [["webhooks", "add"], /expected a URL/],
    [["webhooks", "remove"], /one endpoint ID/],
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

  it("when the URL is on a loopback address, then add refuses it with the reason", async () => {
    const refused = await runCli(db.url, ["webhooks", "add", "https://127.0.0.1/hook"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("loopback");
  });
});
