// What the release before declared tables (schema version 6) stored in test/fixtures/release-6/
// (made by its make.sh through that release's API), and what the current code must read back
// of it after migrating: every row as it was stored, and new writes, a webhook's included.
import { expect } from "vitest";
import type { Store } from "../../src/store/store.ts";
import { claimDue } from "./outbox-upgrade.ts";

export const RELEASE_6_FIXTURES = new URL("../fixtures/release-6/", import.meta.url);

/** The plants both files hold, in key order: int64 ids at both ends, with and without a tag. */
const PLANTS = [
  { id: -(2n ** 63n), name: "Smallest", tag: "" },
  { id: 7n, name: "Ficus élégant 🌿" },
  { id: 2n ** 63n - 2n, name: "Next to largest" },
  { id: 2n ** 63n - 1n, name: "Largest", tag: "int64 max" },
];

/** Each file's endpoint and the deliveries of the four plants' newPlant events, all answered 200. */
export const RELEASE_6_WEBHOOKS = {
  sqlite: {
    endpoint: "ep_01a223baae4edc4bdad0bb",
    secret: "whsec_Bc9P0L6hP0YjsKCY/jooiDIalHeWN8qG",
    createdAt: new Date(1795895766606),
    deliveries: [
      ["msg_01a223baaf64f59c87847276ea0eb12e", 1795895766884],
      ["msg_01a223bab07124eaabca3bde73752ec6", 1795895767153],
      ["msg_01a223bab41310aa0513f1fccd83fd7a", 1795895768083],
      ["msg_01a223bab57b93c46b8b022332d2e693", 1795895768443],
    ],
  },
  postgres: {
    endpoint: "ep_01a223bad57028d4a709c4",
    secret: "whsec_/SKOo7JMJtj40pkmxSTklgzWai/u51AA",
    createdAt: new Date("2026-11-28T19:56:16.624Z"),
    deliveries: [
      ["msg_01a223bad62ac5c434aaebe9421ca1c6", Date.parse("2026-11-28T19:56:16.810Z")],
      ["msg_01a223bad6c761c0aaa9197b4320b60c", Date.parse("2026-11-28T19:56:16.967Z")],
      ["msg_01a223bad8dc643f3cc32b4c4bd484fc", Date.parse("2026-11-28T19:56:17.499Z")],
      ["msg_01a223bada739621ffcf45174655a790", Date.parse("2026-11-28T19:56:17.907Z")],
    ],
  },
} as const;

/**
 * The upgraded store reads back every plant, the endpoint and its deliveries as the release
 * stored them; then creates, patches and deletes plants, and sends a new plant's event to the
 * endpoint signed with its stored secret.
 */
export async function expectRelease6Kept(
  store: Store,
  engine: keyof typeof RELEASE_6_WEBHOOKS,
): Promise<void> {
  const plants = store.resources.plants;
  for (const plant of PLANTS) expect(await plants.get(plant.id)).toEqual(plant);
  expect((await plants.list({ limit: 10, maxTextBytes: 1 << 20 })).rows).toEqual(PLANTS);

  const hooks = RELEASE_6_WEBHOOKS[engine];
  expect(await store.webhooks.getEndpoint(hooks.endpoint)).toEqual({
    id: hooks.endpoint,
    url: "http://127.0.0.1:18931/hook",
    description: "release 6 fixture",
    createdAt: hooks.createdAt,
    disabledAt: null,
    events: ["newPlant"],
  });
  const listed = await store.webhooks.listDeliveries(hooks.endpoint, { limit: 10 });
  expect(listed?.deliveries).toEqual(
    hooks.deliveries.map(([id, at], index) => ({
      id,
      endpointId: hooks.endpoint,
      event: "newPlant",
      plantId: [2n ** 63n - 1n, 2n ** 63n - 2n, -(2n ** 63n), 7n][index],
      status: "delivered",
      attempts: 1,
      lastStatus: 200,
      lastError: null,
      nextAttemptAt: null,
      createdAt: new Date(at),
    })),
  );

  const added = { id: 2n ** 63n - 3n, name: "After the upgrade", tag: "new" };
  await plants.create(added);
  expect(await plants.get(added.id)).toEqual(added);
  await plants.update(2n ** 63n - 2n, { tag: "patched" });
  expect(await plants.get(2n ** 63n - 2n)).toEqual({
    id: 2n ** 63n - 2n,
    name: "Next to largest",
    tag: "patched",
  });
  expect(await plants.delete(7n)).toBe(true);
  await store.webhooks.fanOut();
  expect(await claimDue(store)).toEqual([
    expect.objectContaining({
      event: "newPlant",
      endpointId: hooks.endpoint,
      body: '{"id":9223372036854775805,"name":"After the upgrade","tag":"new"}',
      secrets: [hooks.secret],
    }),
  ]);
}
