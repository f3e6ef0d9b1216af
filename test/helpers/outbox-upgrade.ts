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

/** The delivery is listed and claimed as before, with its plant and exact body. */
export async function expectUpgradedDelivery(store: Store): Promise<void> {
  const listed = await store.webhooks.listDeliveries(V5_ROWS.endpoint, { limit: 10 });
  expect(listed?.deliveries).toEqual([
    expect.objectContaining({ id: V5_ROWS.delivery, plantId: V5_ROWS.plantId, status: "pending" }),
  ]);
  const claimed = await store.webhooks.claim({
    owner: "upgrade",
    leaseMs: 60_000,
    limit: 10,
    perEndpoint: 10,
    free: {},
  });
  expect(claimed).toEqual([
    expect.objectContaining({ id: V5_ROWS.delivery, body: V5_ROWS.body, attempts: 0 }),
  ]);
}
