// The behaviour every WebhookStore engine must have, and the outbox a create's event goes to
// (fanned out into deliveries by a claim): one suite, run against each engine. Each test uses a database of its own, since endpoints
// registered by one test would get the deliveries of another's creates.
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import {
  BACKLOG_COUNTED_UP_TO,
  type ClaimRequest,
  ENDPOINT_DISABLED,
  EVENT_UNSUBSCRIBED,
  FAN_OUT_ROWS,
  MAX_RETIRED_SECRETS,
  RotationLimitError,
} from "../../src/store/webhooks.ts";
import { uniqueId } from "../helpers/app.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";
import { insertPendingDeliveries, storedEvents } from "../helpers/token-rows.ts";

const claimAll = (owner: string, over: Partial<ClaimRequest> = {}): ClaimRequest => ({
  owner,
  leaseMs: 60_000,
  limit: 100,
  perEndpoint: 100,
  free: {},
  ...over,
});

describe.each(storeEngines)("WebhookStore contract: $name", (engine) => {
  const opened: TestStore[] = [];
  const freshDatabase = async () => {
    const db = await engine.create();
    opened.push(db);
    return db;
  };
  const fresh = async () => (await freshDatabase()).store;
  const subscribed = (store: TestStore["store"], events: string[], url = "https://a.example/h") =>
    store.webhooks.createEndpoint({ url, description: null, events });
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
  });

  it("when an endpoint is registered, then it is read and listed without its secret, in the order of their ids", async () => {
    const store = await fresh();
    const first = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: "A",
    });
    const second = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://b.example/h",
      description: null,
    });
    expect(first.secret).toMatch(/^whsec_/);
    expect(first.id).toMatch(/^ep_[0-9a-f]{22}$/);
    const { secret: _secret, ...shown } = first;
    expect(await store.webhooks.getEndpoint(first.id)).toEqual(shown);
    // Ids order by creation to the millisecond; two made within one are in either order.
    const [lower, higher] = [first, second].sort((x, y) => (x.id < y.id ? -1 : 1));
    if (lower === undefined || higher === undefined) throw new Error("two endpoints");
    const page = await store.webhooks.listEndpoints({ limit: 1 });
    expect(page).toEqual({ endpoints: [await store.webhooks.getEndpoint(lower.id)], full: true });
    const next = await store.webhooks.listEndpoints({ after: lower.id, limit: 1 });
    expect(next.endpoints.map((e) => e.id)).toEqual([higher.id]);
    expect(await store.webhooks.getEndpoint("ep_none")).toBeUndefined();
  });

  it("when a plant is created, then each enabled endpoint gets one pending delivery with its exact body; a replay, a conflict and a delete emit nothing", async () => {
    const store = await fresh();
    const a = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: null,
    });
    const b = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://b.example/h",
      description: null,
    });
    const id = 2n ** 53n + 1n;
    await store.resources.plants.create({ id, name: "Fern", tag: "green" });
    await store.resources.plants.create({ id, name: "Fern", tag: "green" });
    await store.resources.plants.create({ id, name: "Rose" });
    // One event, stored once, whatever the number of endpoints; a claim fans it out.
    expect((await store.webhooks.backlog()).pending).toBe(1);
    expect(await store.webhooks.fanOut()).toBe(2);
    expect((await store.webhooks.backlog()).pending).toBe(2);
    for (const endpoint of [a, b]) {
      const listed = await store.webhooks.listDeliveries(endpoint.id, { limit: 10 });
      expect(listed?.deliveries).toEqual([
        expect.objectContaining({
          endpointId: endpoint.id,
          plantId: id,
          status: "pending",
          attempts: 0,
          lastStatus: null,
          lastError: null,
        }),
      ]);
      expect(listed?.deliveries[0]?.id).toMatch(/^msg_[0-9a-f]{32}$/);
    }
    const claimed = await store.webhooks.claim(claimAll("me"));
    expect(claimed.map((d) => d.body)).toEqual([
      '{"id":9007199254740993,"name":"Fern","tag":"green"}',
      '{"id":9007199254740993,"name":"Fern","tag":"green"}',
    ]);
    await store.resources.plants.delete(id);
    await store.resources.plants.create({ id, name: "Fern" });
    const again = await store.webhooks.claim(claimAll("me"));
    expect(again.map((d) => d.body)).toEqual([
      '{"id":9007199254740993,"name":"Fern"}',
      '{"id":9007199254740993,"name":"Fern"}',
    ]);
  });

  it("when no endpoint is registered, then a create makes no delivery", async () => {
    const store = await fresh();
    await store.resources.plants.create({ id: uniqueId(), name: "Fern" });
    expect(await store.webhooks.backlog()).toEqual({ pending: 0, oldestCreatedAt: null });
  });

  it("when deliveries are claimed, then a second claim gets none until the lease runs out, and then takes them over", async () => {
    const store = await fresh();
    await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: null,
    });
    await store.resources.plants.create({ id: uniqueId(), name: "Fern" });
    const first = await store.webhooks.claim(claimAll("one", { leaseMs: 1000 }));
    expect(first).toHaveLength(1);
    expect(await store.webhooks.claim(claimAll("two"))).toEqual([]);
    await sleep(1200);
    const taken = await store.webhooks.claim(claimAll("two"));
    expect(taken.map((d) => d.id)).toEqual(first.map((d) => d.id));
    // The first owner's record comes too late: its claim was taken over.
    const id = first[0]?.id ?? "";
    expect(await store.webhooks.complete(id, "one", { kind: "delivered", status: 200 })).toBe(
      false,
    );
    expect(await store.webhooks.complete(id, "two", { kind: "delivered", status: 200 })).toBe(true);
  });

  it("when an endpoint has a backlog, then a claim takes at most its free slots and leaves room for the others", async () => {
    const store = await fresh();
    const slow = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://slow.example/h",
      description: null,
    });
    for (let n = 0; n < 5; n++)
      await store.resources.plants.create({ id: uniqueId(), name: `p${n}` });
    const fast = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://fast.example/h",
      description: null,
    });
    await store.resources.plants.create({ id: uniqueId(), name: "late" });
    const claimed = await store.webhooks.claim(
      claimAll("me", { perEndpoint: 2, free: { [slow.id]: 1 } }),
    );
    const count = (id: string) => claimed.filter((d) => d.endpointId === id).length;
    expect(count(slow.id)).toBe(1);
    expect(count(fast.id)).toBe(1);
  });

  it("when attempts are recorded, then the log shows them: retry due later, delivered, failed; a retry makes it pending again", async () => {
    const store = await fresh();
    const endpoint = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: null,
    });
    await store.resources.plants.create({ id: 1n, name: "one" });
    await store.resources.plants.create({ id: 2n, name: "two" });
    const [d1, d2] = await store.webhooks.claim(claimAll("me"));
    if (d1 === undefined || d2 === undefined) throw new Error("two deliveries expected");
    const before = Date.now();
    await store.webhooks.complete(d1.id, "me", {
      kind: "retry",
      status: 500,
      error: null,
      delayMs: 60_000,
    });
    await store.webhooks.complete(d2.id, "me", {
      kind: "failed",
      status: null,
      error: "timed out",
    });
    const log = await store.webhooks.listDeliveries(endpoint.id, { limit: 10 });
    const byId = new Map(log?.deliveries.map((d) => [d.id, d]));
    expect(byId.get(d1.id)).toMatchObject({ status: "pending", attempts: 1, lastStatus: 500 });
    expect(byId.get(d1.id)?.nextAttemptAt?.getTime()).toBeGreaterThan(before + 50_000);
    expect(byId.get(d2.id)).toMatchObject({
      status: "failed",
      attempts: 1,
      lastStatus: null,
      lastError: "timed out",
      nextAttemptAt: null,
    });
    expect(await store.webhooks.claim(claimAll("me"))).toEqual([]);
    const retried = await store.webhooks.retryDelivery(endpoint.id, d2.id);
    expect(retried).toMatchObject({ id: d2.id, status: "pending", attempts: 0 });
    expect((await store.webhooks.claim(claimAll("me"))).map((d) => d.id)).toEqual([d2.id]);
    expect(await store.webhooks.retryDelivery(endpoint.id, "msg_none")).toBeUndefined();
  });

  it("when an endpoint answers 410, then it is disabled: its other pending deliveries fail saying why, new creates skip it, and a retry enables it again", async () => {
    const store = await fresh();
    const endpoint = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: null,
    });
    await store.resources.plants.create({ id: 1n, name: "one" });
    await store.resources.plants.create({ id: 2n, name: "two" });
    const [first] = await store.webhooks.claim(claimAll("me", { limit: 1 }));
    await store.webhooks.complete(first?.id ?? "", "me", { kind: "gone", status: 410 });
    expect((await store.webhooks.getEndpoint(endpoint.id))?.disabledAt).toBeInstanceOf(Date);
    await store.resources.plants.create({ id: 3n, name: "three" });
    expect(await store.webhooks.claim(claimAll("me"))).toEqual([]);
    const logged = (await store.webhooks.listDeliveries(endpoint.id, { limit: 10 }))?.deliveries;
    expect(logged).toHaveLength(2);
    const other = logged?.find((delivery) => delivery.id !== first?.id);
    expect(other).toMatchObject({ status: "failed", lastError: ENDPOINT_DISABLED });
    expect(other?.nextAttemptAt).toBeNull();
    expect((await store.webhooks.backlog()).pending).toBe(0);
    await store.webhooks.retryDelivery(endpoint.id, first?.id ?? "");
    expect((await store.webhooks.getEndpoint(endpoint.id))?.disabledAt).toBeNull();
    expect((await store.webhooks.claim(claimAll("me"))).map((d) => d.id)).toEqual([first?.id]);
    await store.resources.plants.create({ id: 4n, name: "four" });
    expect(await store.webhooks.claim(claimAll("me"))).toHaveLength(1);
  });

  it("when claims are asked after an endpoint, then the endpoints after it come first, then the rest", async () => {
    const store = await fresh();
    const made: string[] = [];
    for (const name of ["a", "b", "c"]) {
      made.push((await subscribed(store, ["newPlant"], `https://${name}.example/h`)).id);
    }
    // Claims go round the endpoints by id, which two made within one millisecond need not
    // share with their creation order.
    const [a, b, c] = made.sort();
    await store.resources.plants.create({ id: 1n, name: "one" });
    // Which endpoints a claim takes (each claim given back); the order it lists them in is not
    // promised.
    const taken = async (after: string | undefined, limit: number) => {
      const claimed = await store.webhooks.claim({ ...claimAll(`o-${after}`), limit, after });
      await store.webhooks.release(
        `o-${after}`,
        claimed.map((d) => d.id),
      );
      return claimed.map((d) => d.endpointId).sort();
    };
    expect(await taken(a, 1)).toEqual([b]);
    expect(await taken(a, 2)).toEqual([b, c]);
    expect(await taken(b, 1)).toEqual([c]);
    // Round again from the first: c comes, then a, not the first two.
    expect(await taken(b, 2)).toEqual([a, c]);
    expect(await taken(c, 1)).toEqual([a]);
    expect(await taken(undefined, 1)).toEqual([a]);
    expect(await taken(c, 3)).toEqual([a, b, c]);
  });

  it("when a secret is rotated twice, then every secret rotated away signs during its own overlap, and none after it", async () => {
    const store = await fresh();
    const endpoint = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: null,
    });
    const rotated = await store.webhooks.rotateSecret(endpoint.id, 60_000);
    expect(rotated).toMatch(/^whsec_/);
    await store.resources.plants.create({ id: 1n, name: "one" });
    const [claimed] = await store.webhooks.claim(claimAll("me"));
    expect(claimed?.secrets).toEqual([rotated, endpoint.secret]);
    // A second rotation (a retried call, say) ends no overlap: the original still signs.
    const again = await store.webhooks.rotateSecret(endpoint.id, 0);
    await store.resources.plants.create({ id: 2n, name: "two" });
    const [later] = await store.webhooks.claim(claimAll("me"));
    expect(later?.secrets).toEqual([again, endpoint.secret]);
    expect(await store.webhooks.rotateSecret("ep_none", 1000)).toBeUndefined();
  });

  it("when MAX_RETIRED_SECRETS rotated-away secrets still sign, then another rotation is refused and changes nothing", async () => {
    const store = await fresh();
    const endpoint = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: null,
    });
    let current = endpoint.secret;
    for (let i = 0; i < MAX_RETIRED_SECRETS; i++) {
      current = (await store.webhooks.rotateSecret(endpoint.id, 60_000)) ?? "";
    }
    await expect(store.webhooks.rotateSecret(endpoint.id, 60_000)).rejects.toThrow(
      RotationLimitError,
    );
    await store.resources.plants.create({ id: 1n, name: "one" });
    const [claimed] = await store.webhooks.claim(claimAll("me"));
    expect(claimed?.secrets).toHaveLength(MAX_RETIRED_SECRETS + 1);
    expect(claimed?.secrets[0]).toBe(current);
    expect(claimed?.secrets.at(-1)).toBe(endpoint.secret);
  });

  it("when more deliveries are pending than the backlog counts, then it reads the bound, and the oldest", async () => {
    const store = await fresh();
    const endpoint = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: null,
    });
    await insertPendingDeliveries(opened.at(-1)?.url ?? "", endpoint.id, BACKLOG_COUNTED_UP_TO + 5);
    const backlog = await store.webhooks.backlog();
    expect(backlog.pending).toBe(BACKLOG_COUNTED_UP_TO);
    expect(backlog.oldestCreatedAt).toBeInstanceOf(Date);
  });

  it("when claims are released, then they are due again at once for anyone", async () => {
    const store = await fresh();
    await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: null,
    });
    await store.resources.plants.create({ id: 1n, name: "one" });
    const claimed = await store.webhooks.claim(claimAll("me"));
    await store.webhooks.release(
      "me",
      claimed.map((d) => d.id),
    );
    expect((await store.webhooks.claim(claimAll("other"))).map((d) => d.id)).toEqual(
      claimed.map((d) => d.id),
    );
  });

  it("when an endpoint is deleted, then it and its deliveries are gone, and the events no delivery is left of", async () => {
    const { store, url } = await freshDatabase();
    const endpoint = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: null,
    });
    await store.resources.plants.create({ id: 1n, name: "one" });
    await store.webhooks.fanOut();
    expect(await store.webhooks.deleteEndpoint(endpoint.id)).toBe(true);
    expect(await store.webhooks.deleteEndpoint(endpoint.id)).toBe(false);
    expect(await store.webhooks.listDeliveries(endpoint.id, { limit: 10 })).toBeUndefined();
    expect(await store.webhooks.backlog()).toMatchObject({ pending: 0 });
    expect(await storedEvents(url)).toBe(0);
  });

  it("when an event finds no endpoint to send to by its fan-out, then it is not kept", async () => {
    const { store, url } = await freshDatabase();
    const endpoint = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: null,
    });
    await store.resources.plants.create({ id: 1n, name: "one" });
    expect(await storedEvents(url)).toBe(1);
    await store.webhooks.deleteEndpoint(endpoint.id);
    expect(await store.webhooks.fanOut()).toBe(0);
    expect(await storedEvents(url)).toBe(0);
  });

  it("when finished deliveries are older than the cutoff, then purge removes them in bounded batches, with their events, and keeps pending ones", async () => {
    const { store, url } = await freshDatabase();
    await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://a.example/h",
      description: null,
    });
    for (let n = 1n; n <= 3n; n++) await store.resources.plants.create({ id: n, name: `p${n}` });
    await store.resources.plants.create({ id: 9n, name: "still pending" });
    const claimed = await store.webhooks.claim(claimAll("me", { limit: 3 }));
    for (const d of claimed)
      await store.webhooks.complete(d.id, "me", { kind: "delivered", status: 204 });
    expect(await store.webhooks.purge(new Date(Date.now() - 60_000), 10)).toBe(0);
    const cutoff = new Date(Date.now() + 1000);
    expect(await store.webhooks.purge(cutoff, 2)).toBe(2);
    expect(await store.webhooks.purge(cutoff, 2)).toBe(1);
    expect(await store.webhooks.purge(cutoff, 2)).toBe(0);
    expect(await storedEvents(url)).toBe(1);
    const backlog = await store.webhooks.backlog();
    expect(backlog.pending).toBe(1);
    expect(backlog.oldestCreatedAt).toBeInstanceOf(Date);
  });

  it("when plants are created with a thousand endpoints registered, then each create stores its event once, and claims fan the events out FAN_OUT_ROWS deliveries at a time, to the endpoints registered by then", async () => {
    const store = await fresh();
    const endpoints = await Promise.all(
      Array.from({ length: 1000 }, (_, n) =>
        store.webhooks.createEndpoint({
          events: ["newPlant"],
          url: `https://e${n}.example/h`,
          description: null,
        }),
      ),
    );
    const events = FAN_OUT_ROWS / 1000 + 1;
    for (let n = 1n; n <= BigInt(events); n++)
      await store.resources.plants.create({ id: n, name: `p${n}` });
    expect((await store.webhooks.backlog()).pending).toBe(events);
    const late = await store.webhooks.createEndpoint({
      events: ["newPlant"],
      url: "https://late.example/h",
      description: null,
    });
    // As many events as make FAN_OUT_ROWS deliveries for the 1,001 endpoints enabled.
    const first = Math.floor(FAN_OUT_ROWS / 1001);
    await store.webhooks.fanOut();
    expect((await store.webhooks.backlog()).pending).toBe(first * 1000 + events - first);
    await store.webhooks.fanOut();
    expect((await store.webhooks.backlog()).pending).toBe(events * 1000);
    const last = endpoints.at(-1)?.id ?? "";
    const listed = await store.webhooks.listDeliveries(last, { limit: 10 });
    // Sorted: ids order deliveries by their event's millisecond, and these share some.
    expect(listed?.deliveries.map((d) => d.plantId).sort()).toEqual(
      Array.from({ length: events }, (_, n) => BigInt(n + 1)),
    );
    expect(await store.webhooks.listDeliveries(late.id, { limit: 10 })).toEqual({
      deliveries: [],
      full: false,
    });
  });

  it("when an endpoint subscribes to plantDeleted alone, then a create sends it nothing and a delete sends the id; a subscription added later gets the events recorded after it, one dropped no more", async () => {
    const store = await fresh();
    const deletes = await store.webhooks.createEndpoint({
      url: "https://deletes.example/h",
      description: null,
      events: ["plantDeleted"],
    });
    expect(deletes.events).toEqual(["plantDeleted"]);
    const id = 2n ** 53n + 1n;
    await store.resources.plants.create({ id, name: "Fern" });
    await store.resources.plants.delete(id);
    await store.resources.plants.delete(id);
    const first = await store.webhooks.claim(claimAll("me"));
    expect(first.map((d) => [d.event, d.body])).toEqual([
      ["plantDeleted", '{"id":9007199254740993}'],
    ]);
    expect((await store.webhooks.listDeliveries(deletes.id, { limit: 10 }))?.deliveries).toEqual([
      expect.objectContaining({ event: "plantDeleted", plantId: id }),
    ]);

    await store.resources.plants.create({ id: 1n, name: "Before" });
    const changed = await store.webhooks.updateEndpoint(deletes.id, {
      events: ["newPlant"],
      description: "new plants now",
    });
    expect(changed).toMatchObject({ events: ["newPlant"], description: "new plants now" });
    await store.resources.plants.create({ id: 2n, name: "After" });
    await store.resources.plants.delete(2n);
    const second = await store.webhooks.claim(claimAll("me"));
    expect(second.map((d) => [d.event, d.body])).toEqual([["newPlant", '{"id":2,"name":"After"}']]);
    expect(
      await store.webhooks.updateEndpoint("ep_none", { events: ["newPlant"] }),
    ).toBeUndefined();
  });

  it("when an endpoint drops an event, then its queued deliveries of it fail saying why, a claimed one too (its outcome lost), those of the events it keeps stay pending, and a retry sends one anyway", async () => {
    const store = await fresh();
    const endpoint = await subscribed(store, ["newPlant", "plantDeleted"]);
    for (const id of [1n, 2n]) await store.resources.plants.create({ id, name: `p${id}` });
    await store.resources.plants.delete(1n);
    const claimed = await store.webhooks.claim(claimAll("me", { limit: 1 }));
    expect(claimed.map((d) => d.event)).toEqual(["newPlant"]);
    const [held] = claimed;
    if (held === undefined) throw new Error("a claim");
    const before = (await store.webhooks.backlog()).pending;
    expect(before).toBe(3);

    expect(
      await store.webhooks.updateEndpoint(endpoint.id, { events: ["plantDeleted"] }),
    ).toMatchObject({
      events: ["plantDeleted"],
    });
    const log = (await store.webhooks.listDeliveries(endpoint.id, { limit: 10 }))?.deliveries ?? [];
    const shown = log.map((d) => [
      d.event,
      d.plantId,
      d.status,
      d.lastError,
      d.nextAttemptAt,
      d.attempts,
    ]);
    expect(shown.sort()).toEqual(
      [
        ["newPlant", 1n, "failed", EVENT_UNSUBSCRIBED, null, 0],
        ["newPlant", 2n, "failed", EVENT_UNSUBSCRIBED, null, 0],
        ["plantDeleted", 1n, "pending", null, expect.any(Date), 0],
      ].sort(),
    );
    expect((await store.webhooks.backlog()).pending).toBe(1);
    // The deliverer that held one learns its claim is gone; the failure stays.
    expect(await store.webhooks.complete(held.id, "me", { kind: "delivered", status: 200 })).toBe(
      false,
    );
    expect(
      (await store.webhooks.listDeliveries(endpoint.id, { limit: 10 }))?.deliveries.find(
        (d) => d.id === held.id,
      )?.status,
    ).toBe("failed");
    expect((await store.webhooks.claim(claimAll("other"))).map((d) => d.event)).toEqual([
      "plantDeleted",
    ]);

    const retried = await store.webhooks.retryDelivery(endpoint.id, held.id);
    expect(retried).toMatchObject({ event: "newPlant", status: "pending", attempts: 0 });
    expect((await store.webhooks.claim(claimAll("later"))).map((d) => d.id)).toEqual([held.id]);
  });

  it("when an endpoint's description alone changes, then its queued deliveries stay pending", async () => {
    const store = await fresh();
    const endpoint = await subscribed(store, ["newPlant"]);
    await store.resources.plants.create({ id: 1n, name: "p1" });
    await store.webhooks.updateEndpoint(endpoint.id, { description: "renamed" });
    await store.webhooks.updateEndpoint(endpoint.id, { events: ["newPlant"] });
    const log = (await store.webhooks.listDeliveries(endpoint.id, { limit: 10 }))?.deliveries;
    expect(log?.map((d) => d.status)).toEqual(["pending"]);
  });

  it("when an endpoint is registered naming no events, then it subscribes to every event declared", async () => {
    const store = await fresh();
    const all = await store.webhooks.createEndpoint({
      url: "https://all.example/h",
      description: null,
    });
    expect(all.events).toEqual([...store.webhooks.events].sort());
    expect((await store.webhooks.getEndpoint(all.id))?.events).toEqual(all.events);
  });

  it("when no enabled endpoint subscribes to an event, then a write records none of it", async () => {
    const { store, url } = await freshDatabase();
    await store.webhooks.createEndpoint({
      url: "https://a.example/h",
      description: null,
      events: ["plantDeleted"],
    });
    await store.resources.plants.create({ id: 1n, name: "one" });
    expect(await storedEvents(url)).toBe(0);
    await store.resources.plants.delete(1n);
    expect(await storedEvents(url)).toBe(1);
  });
});
