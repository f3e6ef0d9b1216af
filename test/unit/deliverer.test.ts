// The deliverer as its parts are wired together (src/webhooks/deliverer.ts), on a store double
// and a real receiver on 127.0.0.1: the owner its claims are held under, the warnings of its
// parts reaching its log, and an attempt's end waking the claim loop. Every wait is for a call
// the store double or the log sees.
import { hostname } from "node:os";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ClaimedDelivery,
  newWebhookSecret,
  type WebhookEndpoint,
  type WebhookStore,
} from "../../src/store/webhooks.ts";
import { type Deliverer, startDeliverer } from "../../src/webhooks/deliverer.ts";
import { closeWebhookConnections } from "../../src/webhooks/send.ts";
import { startReceiver } from "../helpers/webhook-receiver.ts";

const SETTINGS = {
  timeoutMs: 10_000,
  leaseMs: 60_000,
  retryScheduleMs: [60_000],
  retentionMs: 86_400_000,
  allowPrivate: true,
  concurrency: 2,
  endpointConcurrency: 1,
};
// Longer than any test: a claim after the first one is woken, never polled for.
const POLL_MS = 600_000;

/** Resolves with the arguments of the first call of the returned function. */
function firstCall<A extends unknown[]>() {
  let seen: (args: A) => void = () => undefined;
  const called = new Promise<A>((resolve) => {
    seen = resolve;
  });
  return { called, call: (...args: A) => seen(args) };
}

/** A store with nothing due, its backlog empty; each method a spy the test may change. */
function storeDouble() {
  return {
    nextDueInMs: vi.fn(async (): Promise<number | null> => null),
    claim: vi.fn(async (): Promise<ClaimedDelivery[]> => []),
    release: vi.fn(async (_owner: string, _ids: readonly string[]) => undefined),
    complete: vi.fn(async () => true),
    getEndpoint: vi.fn(
      async (id: string): Promise<WebhookEndpoint> => ({
        id,
        url: "http://127.0.0.1/unused",
        description: null,
        createdAt: new Date(0),
        disabledAt: null,
        events: ["newPlant"],
      }),
    ),
    backlog: vi.fn(async () => ({ pending: 0, oldestCreatedAt: null as Date | null })),
    purge: vi.fn(async () => 0),
  };
}

const running: Deliverer[] = [];
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const deliverer of running.splice(0)) await deliverer.stop();
  await Promise.all(closing.splice(0).map((close) => close()));
  await closeWebhookConnections();
});

function start(store: ReturnType<typeof storeDouble>, log = { info: vi.fn(), warn: vi.fn() }) {
  const deliverer = startDeliverer({
    store: store as unknown as WebhookStore,
    settings: SETTINGS,
    log,
    registry: new Registry(),
    pollMs: POLL_MS,
  });
  running.push(deliverer);
  return deliverer;
}

describe("the deliverer", () => {
  it("when stopped, then its claims are given back under an owner naming the host and the process, unique to this deliverer", async () => {
    const first = storeDouble();
    const second = storeDouble();
    const one = start(first);
    const other = start(second);
    running.splice(0);
    await one.stop();
    await other.stop();
    const [[owner, ids]] = first.release.mock.calls as [[string, string[]]];
    expect(ids).toEqual([]);
    expect(owner).toMatch(new RegExp(`^${hostname()}:${process.pid}:[0-9a-f]{8}$`));
    expect(second.release.mock.calls[0]?.[0]).not.toBe(owner);
  });

  it("when its upkeep fails, then the warning reaches the deliverer's log", async () => {
    const store = storeDouble();
    const down = new Error("store down");
    store.backlog.mockRejectedValue(down);
    const warned = firstCall<[object, string]>();
    start(store, { info: vi.fn(), warn: vi.fn(warned.call) });
    expect(await warned.called).toEqual([{ err: down }, "webhook backlog not read"]);
  });

  it("when an attempt ends, then the claim loop claims again at once rather than after its poll", async () => {
    const receiver = await startReceiver();
    closing.push(() => receiver.close());
    const store = storeDouble();
    store.nextDueInMs.mockResolvedValue(0);
    store.claim.mockResolvedValueOnce([
      {
        id: "msg_1",
        event: "newPlant",
        endpointId: "ep_1",
        url: receiver.url,
        body: "{}",
        attempts: 0,
        secrets: [newWebhookSecret()],
      },
    ]);
    const claimedAgain = firstCall<[]>();
    store.complete.mockImplementation(async () => {
      store.claim.mockImplementation(async () => {
        claimedAgain.call();
        return [];
      });
      return true;
    });
    start(store);
    await claimedAgain.called;
    expect(store.complete).toHaveBeenCalledTimes(1);
  }, 5_000);
});
