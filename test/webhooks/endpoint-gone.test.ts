// The deliverer with deliveries queued for an endpoint that goes away under it, on every engine:
// answering 410 Gone, or deleted. The receiver holds its answers until the test gives them,
// and the store is real with its calls watched, so "nothing more is sent" is an event (every
// claim left is given back), not a pause.
import type { ServerResponse } from "node:http";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import type { ClaimedDelivery, WebhookStore } from "../../src/store/webhooks.ts";
import { ENDPOINT_DISABLED } from "../../src/store/webhooks.ts";
import { type Deliverer, startDeliverer } from "../../src/webhooks/deliverer.ts";
import { uniqueId } from "../helpers/app.ts";
import { waitUntilAsync } from "../helpers/auth.ts";
import { storeEngines, useTestStore } from "../helpers/stores.ts";
import { eventually, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

/** Deliveries made for the endpoint: few enough that the deliverer claims them all at once. */
const DELIVERIES = 10;
/** Longer than the tests: no attempt times out and no lease runs out while they run. */
const SETTINGS = {
  timeoutMs: 60_000,
  leaseMs: 120_000,
  retryScheduleMs: [60_000],
  retentionMs: 86_400_000,
  allowPrivate: true,
  concurrency: 8,
};

/**
 * The real store with its claims and gives-back seen (a give-back when it is asked for), and
 * its completions and gives-back held while the test says so, then made in the order they
 * came, as the store's one write path would make them.
 */
function watched(real: WebhookStore) {
  const claimed: ClaimedDelivery[] = [];
  const released = new Set<string>();
  let resume: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  const store: WebhookStore = {
    ...real,
    claim: async (request) => {
      const got = await real.claim(request);
      claimed.push(...got);
      return got;
    },
    release: async (owner, ids) => {
      for (const id of ids) released.add(id);
      await gate;
      return real.release(owner, ids);
    },
    complete: async (...args) => {
      await gate;
      return real.complete(...args);
    },
  };
  return {
    store,
    claimed,
    released,
    /** Holds completions and gives-back until `resume`: the store learns of neither meanwhile. */
    hold() {
      gate = new Promise((resolve) => {
        resume = resolve;
      });
    },
    resume: () => resume(),
  };
}

/** A receiver that answers nothing until the test does. */
async function holdingReceiver(): Promise<Receiver & { held: ServerResponse[] }> {
  const held: ServerResponse[] = [];
  const receiver = await startReceiver((_n, response) => {
    held.push(response);
    return "handled";
  });
  return { ...receiver, held };
}

describe.each(storeEngines)(
  "an endpoint gone while deliveries are queued for it ($name)",
  (engine) => {
    const db = useTestStore(engine);
    const running: { deliverer: Deliverer; receiver: Receiver; resume: () => void }[] = [];
    afterEach(async () => {
      for (const { deliverer, receiver, resume } of running.splice(0)) {
        resume();
        await deliverer.stop();
        await receiver.close();
      }
    });

    /** An endpoint with its deliveries, a deliverer sending them `endpointConcurrency` at a time. */
    async function queueFor(endpointConcurrency: number) {
      const receiver = await holdingReceiver();
      const webhooks = db().store.webhooks;
      const endpoint = await webhooks.createEndpoint({ url: receiver.url, description: null });
      for (let n = 0; n < DELIVERIES; n++) {
        await db().store.resources.plants.create({ id: uniqueId(), name: `queued ${n}` });
      }
      const watch = watched(webhooks);
      const deliverer = startDeliverer({
        store: watch.store,
        settings: { ...SETTINGS, endpointConcurrency },
        log: { info: () => undefined, warn: () => undefined },
        registry: new Registry(),
        pollMs: 20,
      });
      running.push({ deliverer, receiver, resume: watch.resume });
      const ours = () => watch.claimed.filter((delivery) => delivery.endpointId === endpoint.id);
      // Its first attempts are under way and held, and the rest claimed, queued behind them (so
      // no later claim can take one).
      await eventually(
        () => receiver.held.length === endpointConcurrency && ours().length === DELIVERIES,
        15_000,
        () => `${receiver.held.length} held, ${ours().length} claimed`,
      );
      const sentIds = () => receiver.received.map((request) => request.headers["webhook-id"]);
      /** Until every claim not sent is given back, or one more is sent; what was not given back. */
      const settled = async () => {
        const unsent = () => ours().filter((delivery) => !sentIds().includes(delivery.id));
        await eventually(
          () =>
            receiver.received.length > endpointConcurrency ||
            unsent().every((delivery) => watch.released.has(delivery.id)),
          15_000,
          () => `${unsent().filter((d) => !watch.released.has(d.id)).length} claims not given back`,
        );
        return unsent().filter((delivery) => !watch.released.has(delivery.id));
      };
      return { receiver, endpoint, watch, settled, sentIds };
    }

    it("when the receiver answers 410 while more are queued for it, then the queued ones are given back, none is sent, and the store fails them as disabled", async () => {
      const { receiver, endpoint, watch, settled, sentIds } = await queueFor(1);
      const [first] = sentIds();
      // Until the queue has been dealt with, the store still has the endpoint enabled.
      watch.hold();
      receiver.held[0]?.writeHead(410).end();

      expect(await settled()).toEqual([]);
      expect(sentIds()).toEqual([first]);
      watch.resume();
      const webhooks = db().store.webhooks;
      const deliveries = async () =>
        (await webhooks.listDeliveries(endpoint.id, { limit: 100 }))?.deliveries ?? [];
      await waitUntilAsync(
        async () => (await deliveries()).every((delivery) => delivery.status !== "pending"),
        "the store has recorded the 410",
      );
      const log = await deliveries();
      expect(log).toHaveLength(DELIVERIES);
      for (const delivery of log) {
        expect(delivery).toMatchObject(
          delivery.id === first
            ? { status: "failed", attempts: 1, lastStatus: 410 }
            : { status: "failed", attempts: 0, lastError: ENDPOINT_DISABLED },
        );
      }
      expect((await webhooks.getEndpoint(endpoint.id))?.disabledAt).toBeInstanceOf(Date);
    });

    it("when the endpoint is deleted while two attempts are under way, then those two are all it ever gets and every queued one is given back", async () => {
      const { receiver, endpoint, settled, sentIds } = await queueFor(2);
      const underWay = sentIds();
      expect(await db().store.webhooks.deleteEndpoint(endpoint.id)).toBe(true);
      for (const response of receiver.held) response.writeHead(200).end();

      expect(await settled()).toEqual([]);
      expect(sentIds()).toEqual(underWay);
      expect(await db().store.webhooks.listDeliveries(endpoint.id, { limit: 1 })).toBeUndefined();
    });
  },
);
