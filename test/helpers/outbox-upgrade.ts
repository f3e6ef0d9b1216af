// The webhook rows a version-5 store held (each delivery with its own copy of the body), as
// both engines' upgrade tests write them, and what the upgraded store must show of them.
import { expect } from "vitest";
import type { Store } from "../../src/store/store.ts";

export const V5_ROWS = {
  endpoint: "ep_000000000001aaaaaaaaaa",
  delivery: "msg_000000000001aaaaaaaaaaaaaaaaaaaa",
  plantId: 2n ** 53n + 1n,
  body: '{"id":9007199254740993,"name":"Kept"}',
  /** When both were made (ms), long past: the delivery is due. */
  at: 1_700_000_000_000,
};

/** Claims the deliveries due now (ten at most), as a deliverer would. */
export const claimDue = (store: Store) =>
  store.webhooks.claim({ owner: "upgrade", leaseMs: 60_000, limit: 10, perEndpoint: 10, free: {} });

/** The delivery is listed and claimed as before, with its plant and exact body. */
export async function expectUpgradedDelivery(store: Store): Promise<void> {
  const listed = await store.webhooks.listDeliveries(V5_ROWS.endpoint, { limit: 10 });
  expect(listed?.deliveries).toEqual([
    expect.objectContaining({ id: V5_ROWS.delivery, plantId: V5_ROWS.plantId, status: "pending" }),
  ]);
  expect(await claimDue(store)).toEqual([
    expect.objectContaining({ id: V5_ROWS.delivery, body: V5_ROWS.body, attempts: 0 }),
  ]);
}

/**
 * A version-6 outbox (events chosen for an endpoint by time): one endpoint registered at
 * `registeredAt`; an event fanned out with no delivery left (a race left it); events not fanned
 * out yet from before and after the registration; one fanned out with a pending delivery.
 */
export const V6_ROWS = {
  endpoint: "ep_000000000002bbbbbbbbbb",
  registeredAt: 1_700_000_010_000,
  events: [
    { id: 1, subject: 1n, at: 1_700_000_005_000, fannedOut: true },
    { id: 2, subject: 2n, at: 1_700_000_009_000, fannedOut: false },
    { id: 3, subject: 3n, at: 1_700_000_011_000, fannedOut: false },
    { id: 4, subject: 4n, at: 1_700_000_012_000, fannedOut: true },
  ],
  delivery: { id: "msg_000000000004bbbbbbbbbbbbbbbbbbbb", event: 4 },
};

/**
 * The upgraded store forgot the leftover event, keeps the endpoint's events to those after its
 * registration, and sends it the events recorded after the upgrade.
 */
export async function expectUpgradedOutbox(
  store: Store,
  storedEvents: () => Promise<number>,
): Promise<void> {
  expect(await storedEvents()).toBe(3);
  await store.webhooks.fanOut();
  await store.resources.plants.create({ id: 5n, name: "after the upgrade" });
  const listed = await store.webhooks.listDeliveries(V6_ROWS.endpoint, { limit: 10 });
  expect(listed?.deliveries.map((d) => d.plantId).sort()).toEqual([3n, 4n, 5n]);
  // Event 2 went to no endpoint, so it is not kept either.
  expect(await storedEvents()).toBe(3);
}

/** A version-7 store (before subscriptions): one endpoint, sent every event there was then. */
export const V7_ROWS = {
  endpoint: "ep_000000000003cccccccccc",
  registeredAt: 1_700_000_020_000,
};

/**
 * The endpoint keeps exactly the event it was sent (newPlant): a later event type reaches it
 * only once it subscribes, and from then on.
 */
export async function expectUpgradedSubscriptions(store: Store): Promise<void> {
  const { endpoint } = V7_ROWS;
  expect((await store.webhooks.getEndpoint(endpoint))?.events).toEqual(["newPlant"]);
  const plants = store.resources.plants;
  await plants.create({ id: 1n, name: "before subscribing" });
  expect(await plants.delete(1n)).toBe(true);
  await store.webhooks.updateEndpoint(endpoint, { events: ["plantDeleted", "newPlant"] });
  await plants.create({ id: 2n, name: "after subscribing" });
  expect(await plants.delete(2n)).toBe(true);
  const listed = await store.webhooks.listDeliveries(endpoint, { limit: 10 });
  expect(listed?.deliveries.map((d) => `${d.event} ${d.plantId}`).sort()).toEqual([
    "newPlant 1",
    "newPlant 2",
    "plantDeleted 2",
  ]);
}
