// The outbox (src/store/outbox.ts) and the engine-neutral half of the webhook store
// (src/store/webhooks.ts), called in the test's process: on SQLite both run in the writer thread,
// where the suites through the store reach them but cannot tell which event or key came from where.
import { describe, expect, it } from "vitest";
import { eventBody, outbox } from "../../src/store/outbox.ts";
import type { DataDeclaration, Table } from "../../src/store/tables.ts";
import {
  MAX_RETIRED_SECRETS,
  RotationLimitError,
  retiredAfterRotation,
  signingSecrets,
  WEBHOOK_WRITE_KEYS,
  type WebhookReads,
  type WebhookWrites,
  webhookStore,
} from "../../src/store/webhooks.ts";
import type { Write, WriteArgs, WriteName, WriteResult } from "../../src/store/writes.ts";

const table = (name: string, key: string, members: string[]): Table => ({
  name,
  noun: name.slice(0, -1),
  key,
  columns: members.map((member) => ({
    member,
    name: member,
    kind: "string",
    nullable: false,
    nullIsValue: false,
  })),
});

// Rooms first: a plant's event must find its own table's key, not the first table's.
const DATA: DataDeclaration = {
  tables: [
    table("rooms", "name", ["name", "floor"]),
    table("plants", "id", ["id", "name", "room"]),
  ],
  events: [
    { type: "newPlant", table: "plants", on: "create", members: ["id", "name", "room"] },
    { type: "plantAudit", table: "plants", on: "create", members: ["id"] },
    { type: "plantChanged", table: "plants", on: "update", members: ["id", "name"] },
    { type: "plantGone", table: "plants", on: "delete", members: ["id"] },
    { type: "newRoom", table: "rooms", on: "create", members: ["name"] },
  ],
};
// Made in each call, within the test: Stryker counts only what a test runs as covered by it.
const eventsOf: ReturnType<typeof outbox> = (write, result, wanted) =>
  outbox(DATA)(write, result, wanted);
const row = { id: 7n, name: "Fern", room: "hall" };
const create = (table: string, created: Record<string, unknown>): Write => ({
  name: "createRow",
  args: { table, row: created },
});

describe("outbox", () => {
  it("when a row is created, then each event declared on that write is recorded once, with the row's key and its declared members", () => {
    expect(eventsOf(create("plants", row), { outcome: "created" })).toEqual([
      { type: "newPlant", subjectId: 7n, body: '{"id":7,"name":"Fern","room":"hall"}' },
      { type: "plantAudit", subjectId: 7n, body: '{"id":7}' },
    ]);
  });

  it("when a row whose key is no integer is created, then its event has no subject id", () => {
    expect(eventsOf(create("rooms", { name: "hall", floor: "1" }), { outcome: "created" })).toEqual(
      [{ type: "newRoom", subjectId: null, body: '{"name":"hall"}' }],
    );
  });

  it("when only some event types are wanted, then only those are recorded", () => {
    const wanted = (type: string) => type === "plantAudit";
    expect(eventsOf(create("plants", row), { outcome: "created" }, wanted)).toEqual([
      { type: "plantAudit", subjectId: 7n, body: '{"id":7}' },
    ]);
    expect(eventsOf(create("plants", row), { outcome: "created" }, () => false)).toEqual([]);
  });

  it("when a row is updated or deleted, then the event is of the row as the store answered it, not as the write named it", () => {
    const update: Write = {
      name: "updateRow",
      args: { table: "plants", key: 7n, patch: { name: "Palm" } },
    };
    expect(eventsOf(update, { outcome: "updated", row: { ...row, name: "Palm" } })).toEqual([
      { type: "plantChanged", subjectId: 7n, body: '{"id":7,"name":"Palm"}' },
    ]);
    const remove: Write = { name: "deleteRow", args: { table: "plants", key: 7n } };
    expect(eventsOf(remove, { outcome: "deleted", row })).toEqual([
      { type: "plantGone", subjectId: 7n, body: '{"id":7}' },
    ]);
  });

  it("when a write changes nothing (a create refused, a row absent) or is no row write, then no event is recorded", () => {
    const update: Write = {
      name: "updateRow",
      args: { table: "plants", key: 7n, patch: { name: "Palm" } },
    };
    const remove: Write = { name: "deleteRow", args: { table: "plants", key: 7n } };
    expect(eventsOf(create("plants", row), { outcome: "conflict" })).toEqual([]);
    expect(eventsOf(update, { outcome: "absent" })).toEqual([]);
    expect(eventsOf(update, { outcome: "updated" })).toEqual([]);
    expect(eventsOf(update, { outcome: "absent", row })).toEqual([]);
    expect(eventsOf(remove, { outcome: "absent", row })).toEqual([]);
    expect(eventsOf(remove, { outcome: "deleted" })).toEqual([]);
    const fanOut: Write = { name: "fanOutWebhookEvents", args: {} };
    expect(eventsOf(fanOut, { outcome: "fanned", count: 0 })).toEqual([]);
  });

  it("when a body is built, then it holds the declared members present, in the declared order, int64s exact", () => {
    const event = { type: "e", table: "plants", on: "create" as const, members: ["room", "id"] };
    expect(eventBody(event, { id: 9007199254740993n, name: "x", room: "hall" })).toBe(
      '{"room":"hall","id":9007199254740993}',
    );
    expect(eventBody(event, { id: 1n, name: "x" })).toBe('{"id":1}');
  });
});

describe("signing secrets", () => {
  it("when secrets were rotated away, then the current one and those whose overlap lasts past now sign, newest first", () => {
    const retired = [
      { secret: "b", until: 101 },
      { secret: "a", until: 100 },
    ];
    expect(signingSecrets("c", retired, 100)).toEqual(["c", "b"]);
    expect(signingSecrets("c", retired, 99)).toEqual(["c", "b", "a"]);
  });

  it("when a secret is rotated away, then it leads the retired ones until now plus the overlap, and those that stopped signing are dropped", () => {
    const retired = [
      { secret: "b", until: 500 },
      { secret: "a", until: 100 },
    ];
    expect(retiredAfterRotation("c", retired, 100, 1000)).toEqual([
      { secret: "c", until: 1100 },
      { secret: "b", until: 500 },
    ]);
  });

  it("when as many rotated-away secrets still sign as it allows, then there is no rotation; one fewer, and there is", () => {
    const signing = (count: number) =>
      Array.from({ length: count }, (_, n) => ({ secret: `s${n}`, until: 200 }));
    expect(retiredAfterRotation("c", signing(MAX_RETIRED_SECRETS), 100, 1000)).toBeUndefined();
    expect(retiredAfterRotation("c", signing(MAX_RETIRED_SECRETS - 1), 100, 1000)).toHaveLength(
      MAX_RETIRED_SECRETS,
    );
    // Those that stopped signing do not count.
    const stopped = signing(MAX_RETIRED_SECRETS).map((r) => ({ ...r, until: 100 }));
    expect(retiredAfterRotation("c", stopped, 100, 1000)).toEqual([{ secret: "c", until: 1100 }]);
  });
});

describe("webhook write keys", () => {
  const keysOf = <N extends keyof WebhookWrites>(name: N, args: WebhookWrites[N]["args"]) =>
    [WEBHOOK_WRITE_KEYS[name](args)].flat();
  const share = (a: readonly string[], b: readonly string[]) => a.some((key) => b.includes(key));
  const endpointOne = () => [
    keysOf("deleteWebhookEndpoint", { id: "ep_1" }),
    keysOf("updateWebhookEndpoint", { id: "ep_1" }),
    keysOf("rotateWebhookSecret", { id: "ep_1", secret: "s", overlapMs: 0 }),
    keysOf("retryWebhookDelivery", { endpointId: "ep_1", id: "msg_1" }),
  ];

  it("when writes touch one endpoint (its delete, update, rotation, a retry of its delivery), then each pair shares a key, and none shares one with another endpoint's", () => {
    const ep1 = endpointOne();
    for (const a of ep1) for (const b of ep1) expect(share(a, b)).toBe(true);
    for (const id of ["ep_2"]) {
      const ep2 = [
        keysOf("deleteWebhookEndpoint", { id }),
        keysOf("updateWebhookEndpoint", { id }),
        keysOf("rotateWebhookSecret", { id, secret: "s", overlapMs: 0 }),
        keysOf("retryWebhookDelivery", { endpointId: id, id: "msg_2" }),
      ];
      for (const a of ep1) for (const b of ep2) expect(share(a, b)).toBe(false);
    }
  });

  it("when a delivery is retried, then the retry shares a key with the recording of its attempt, not with another delivery's", () => {
    const record = { status: "delivered" } as never;
    const retry = keysOf("retryWebhookDelivery", { endpointId: "ep_1", id: "msg_1" });
    expect(
      share(retry, keysOf("completeWebhookDelivery", { id: "msg_1", owner: "o", record })),
    ).toBe(true);
    expect(
      share(retry, keysOf("completeWebhookDelivery", { id: "msg_2", owner: "o", record })),
    ).toBe(false);
  });

  it("when endpoints are registered, then every registration shares one key (the count and the insert of the cap are one step), and purges share one of their own", () => {
    const register = (id: string) =>
      keysOf("createWebhookEndpoint", {
        id,
        url: "u",
        description: null,
        secret: "s",
        createdAt: 0,
        events: [],
        maxEndpoints: 1,
      });
    expect(share(register("ep_1"), register("ep_2"))).toBe(true);
    const purge = () => keysOf("purgeWebhookDeliveries", { before: 0, limit: 1 });
    expect(share(purge(), purge())).toBe(true);
    expect(share(purge(), register("ep_1"))).toBe(false);
  });

  it("when claims are made, events fanned out or claims given back, then all share one key", () => {
    const claims = [
      keysOf("fanOutWebhookEvents", {}),
      keysOf("claimWebhookDeliveries", {} as never),
      keysOf("releaseWebhookDeliveries", { owner: "o", ids: [] }),
    ];
    for (const a of claims) for (const b of claims) expect(share(a, b)).toBe(true);
  });
});

describe("webhook store over the writes", () => {
  /** A store whose writes answer `answers[name]` and are recorded in order. */
  function storeOver(answers: Partial<Record<WriteName, unknown>>, declared = ["z", "a"]) {
    const calls: { name: string; args: unknown }[] = [];
    const run = async <N extends WriteName>(name: N, args: WriteArgs<N>) => {
      calls.push({ name, args });
      return answers[name] as WriteResult<N>;
    };
    const endpoint = { id: "ep_1" } as never;
    const reads = { getEndpoint: async () => endpoint } as unknown as WebhookReads;
    return { store: webhookStore(run, reads, declared, () => 1000), calls, endpoint };
  }

  it("when an endpoint is made, then its events are subscribed once each, sorted, every declared one when none is named", async () => {
    const { store, calls } = storeOver({ createWebhookEndpoint: { outcome: "created" } });
    const named = await store.createEndpoint({
      url: "u",
      description: null,
      events: ["b", "a", "b"],
    });
    expect(named.events).toEqual(["a", "b"]);
    const all = await store.createEndpoint({ url: "u", description: null });
    expect(all.events).toEqual(["a", "z"]);
    expect(calls.map((call) => (call.args as { events: string[] }).events)).toEqual([
      ["a", "b"],
      ["a", "z"],
    ]);
  });

  it("when only an endpoint's description changes, then nothing is fanned out and only the description is written", async () => {
    const { store, calls, endpoint } = storeOver({ updateWebhookEndpoint: { outcome: "updated" } });
    expect(await store.updateEndpoint("ep_1", { description: "d" })).toBe(endpoint);
    expect(calls).toEqual([
      { name: "updateWebhookEndpoint", args: { id: "ep_1", description: "d" } },
    ]);
  });

  it("when an endpoint's events change, then the events recorded so far are fanned out first, and the new ones written sorted, once each", async () => {
    const { store, calls } = storeOver({
      fanOutWebhookEvents: { outcome: "fanned", count: 0 },
      updateWebhookEndpoint: { outcome: "updated" },
    });
    await store.updateEndpoint("ep_1", { events: ["b", "a", "a"] });
    // Strict: no description member at all, not one that is undefined.
    expect(calls).toStrictEqual([
      { name: "fanOutWebhookEvents", args: {} },
      { name: "updateWebhookEndpoint", args: { id: "ep_1", events: ["a", "b"] } },
    ]);
  });

  it("when the endpoint to change is absent, then the answer is undefined", async () => {
    const { store } = storeOver({ updateWebhookEndpoint: { outcome: "absent" } });
    expect(await store.updateEndpoint("ep_1", { description: "d" })).toBeUndefined();
  });

  it("when no claims are given back, then nothing is written", async () => {
    const { store, calls } = storeOver({ releaseWebhookDeliveries: { outcome: "released" } });
    await store.release("o", []);
    expect(calls).toEqual([]);
    await store.release("o", ["msg_1"]);
    expect(calls).toHaveLength(1);
  });

  it("when a rotation finds every retired slot signing, then it is refused with a message that says why and what to do", async () => {
    const { store } = storeOver({ rotateWebhookSecret: { outcome: "full" } });
    const refused = store.rotateSecret("ep_1", 1000);
    await expect(refused).rejects.toBeInstanceOf(RotationLimitError);
    await expect(refused).rejects.toThrow(
      `the endpoint's secret was rotated ${MAX_RETIRED_SECRETS} times within the overlap, and each of those secrets still signs: rotate again once the oldest stops signing`,
    );
  });
});
