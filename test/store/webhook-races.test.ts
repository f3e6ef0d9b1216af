// The outbox under races between instances, on every engine: endpoint deletes and purges that
// overlap never leave an event row behind, and which events an endpoint gets is decided by order,
// not by any instance's clock. Two store instances share one database, as two servers would.
import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "../../src/store/store.ts";
import type { ClaimRequest } from "../../src/store/webhooks.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";
import { storedEvents } from "../helpers/token-rows.ts";

const ROUNDS = 50;

const claimAll = (owner: string): ClaimRequest => ({
  owner,
  leaseMs: 60_000,
  limit: 1000,
  perEndpoint: 1000,
  free: {},
});

/** Two endpoints that share `events` events, every delivery of them done. */
async function sharedEvents(store: Store, events: number, round: number) {
  const endpoints = [
    await store.webhooks.createEndpoint({ url: "https://a.example/h", description: null }),
    await store.webhooks.createEndpoint({ url: "https://b.example/h", description: null }),
  ];
  for (let n = 0; n < events; n++) {
    await store.resources.plants.create({ id: BigInt(round * 1000 + n), name: `p${n}` });
  }
  for (const delivery of await store.webhooks.claim(claimAll("me"))) {
    await store.webhooks.complete(delivery.id, "me", { kind: "delivered", status: 200 });
  }
  return endpoints.map((endpoint) => endpoint.id) as [string, string];
}

describe.each(storeEngines)("webhook outbox races: $name", (engine) => {
  const opened: TestStore[] = [];
  const fresh = async () => {
    const db = await engine.create();
    opened.push(db);
    return db;
  };
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
  });

  it(`when two instances delete endpoints that share events at once, ${ROUNDS} times, then no event row is left`, async () => {
    const db = await fresh();
    const other = await db.reopen();
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = await sharedEvents(db.store, 3, round);
      const deleted = await Promise.all([
        db.store.webhooks.deleteEndpoint(a),
        other.webhooks.deleteEndpoint(b),
      ]);
      expect(deleted).toEqual([true, true]);
      expect(await storedEvents(db.url), `round ${round}`).toBe(0);
    }
  }, 120_000);

  it(`when one instance deletes endpoints that share events at once, ${ROUNDS} times, then no event row is left`, async () => {
    const db = await fresh();
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = await sharedEvents(db.store, 3, round);
      await Promise.all([db.store.webhooks.deleteEndpoint(a), db.store.webhooks.deleteEndpoint(b)]);
      expect(await storedEvents(db.url), `round ${round}`).toBe(0);
    }
  }, 120_000);

  it(`when a purge on one instance overlaps an endpoint's delete on another, ${ROUNDS} times, then no event row is left`, async () => {
    const db = await fresh();
    const other = await db.reopen();
    const cutoff = () => new Date(Date.now() + 60_000);
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = await sharedEvents(db.store, 3, round);
      // The purge takes every finished delivery, of both endpoints; the delete those of one.
      await Promise.all([
        db.store.webhooks.purge(cutoff(), 1000),
        other.webhooks.deleteEndpoint(a),
      ]);
      expect(await storedEvents(db.url), `round ${round}`).toBe(0);
      await db.store.webhooks.deleteEndpoint(b);
    }
  }, 120_000);

  it(`when two instances purge the deliveries of shared events at once, ${ROUNDS} times, then no event row is left`, async () => {
    const db = await fresh();
    const other = await db.reopen();
    const cutoff = () => new Date(Date.now() + 60_000);
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = await sharedEvents(db.store, 2, round);
      // Each purge takes one delivery: two purges of one event's two deliveries.
      await Promise.all([db.store.webhooks.purge(cutoff(), 1), other.webhooks.purge(cutoff(), 1)]);
      await Promise.all([db.store.webhooks.purge(cutoff(), 1), other.webhooks.purge(cutoff(), 1)]);
      expect(await storedEvents(db.url), `round ${round}`).toBe(0);
      await db.store.webhooks.deleteEndpoint(a);
      await db.store.webhooks.deleteEndpoint(b);
    }
  }, 120_000);

  it.each([
    ["ahead", 30_000],
    ["behind", -30_000],
  ])(
    "when the registering instance's clock runs 30 s %s, then its endpoint gets exactly the events recorded after its registration",
    async (_, offsetMs) => {
      const db = await fresh();
      const skewed = await db.reopen({ clock: () => Date.now() + offsetMs });
      const before = [1n, 2n, 3n];
      const after = Array.from({ length: 20 }, (_, n) => BigInt(100 + n));
      // An endpoint already there, so the plants before the registration record events too.
      await db.store.webhooks.createEndpoint({ url: "https://early.example/h", description: null });
      for (const id of before) await db.store.resources.plants.create({ id, name: `p${id}` });
      const endpoint = await skewed.webhooks.createEndpoint({
        url: "https://late.example/h",
        description: null,
      });
      for (const id of after) await db.store.resources.plants.create({ id, name: `p${id}` });
      const log = await db.store.webhooks.listDeliveries(endpoint.id, { limit: 100 });
      expect(log?.deliveries.map((d) => d.plantId).sort((a, b) => Number(a - b))).toEqual(after);
      const claimed = await db.store.webhooks.claim(claimAll("me"));
      expect(claimed.filter((d) => d.endpointId === endpoint.id)).toHaveLength(after.length);
    },
  );
});
