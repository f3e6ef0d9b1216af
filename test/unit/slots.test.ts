// The deliverer's slots (src/webhooks/slots.ts) on a clock of the test's own: attempts end when
// the test says (an answer after some milliseconds, or a timeout), so fairness is checked step
// by step and never by how fast the machine is.
import { describe, expect, it } from "vitest";
import type { ClaimedDelivery } from "../../src/store/webhooks.ts";
import { type Queued, Slots } from "../../src/webhooks/slots.ts";

let made = 0;
/** `count` claimed deliveries of `endpointId`. */
const claimed = (endpointId: string, count: number): Queued[] =>
  Array.from({ length: count }, () => {
    const delivery: ClaimedDelivery = {
      id: `msg_${++made}`,
      event: "newPlant",
      endpointId,
      url: `https://${endpointId}.example/hook`,
      body: "{}",
      attempts: 0,
      secrets: [],
    };
    return { delivery, claimedAt: 0 };
  });
const endpointsOf = (taken: readonly Queued[]) => taken.map((item) => item.delivery.endpointId);
const idsOf = (items: readonly Queued[]) => items.map((item) => item.delivery.id);

interface Attempt {
  endpoint: string;
  id: string;
  startedAt: number;
  endsAt: number;
  /** Whether its endpoint was slow (its last attempt timed out) when it started. */
  slow: boolean;
  /** How many attempts of slow endpoints were under way when it started. */
  slowUnderWay: number;
}

/**
 * Runs slots as the dispatch does, on a clock of the test's own: whatever `take` hands out
 * starts at once and ends `durationOf(endpoint)` ms later, timed out when `timesOut(endpoint)`;
 * each end frees its slot, trims a slow endpoint's queue, and starts what the slots then allow.
 */
function simulate(
  slots: Slots,
  ends: { durationOf: (endpoint: string) => number; timesOut: (endpoint: string) => boolean },
) {
  let now = 0;
  const slow = new Set<string>();
  const running: Attempt[] = [];
  const ended: Attempt[] = [];
  const started: Attempt[] = [];
  const start = () => {
    for (const { delivery } of slots.take()) {
      const endpoint = delivery.endpointId;
      const slowUnderWay = running.filter((attempt) => slow.has(attempt.endpoint)).length;
      const endsAt = now + ends.durationOf(endpoint);
      const attempt = {
        endpoint,
        id: delivery.id,
        startedAt: now,
        endsAt,
        slow: slow.has(endpoint),
        slowUnderWay,
      };
      running.push(attempt);
      started.push(attempt);
    }
  };
  start();
  return {
    running,
    started,
    ended,
    /** Moves the clock on to `until`, ending attempts in the order they end. */
    runUntil(until: number) {
      for (;;) {
        running.sort((a, b) => a.endsAt - b.endsAt);
        const next = running[0];
        if (next === undefined || next.endsAt > until) break;
        running.shift();
        now = next.endsAt;
        const timedOut = ends.timesOut(next.endpoint);
        if (timedOut) slow.add(next.endpoint);
        else slow.delete(next.endpoint);
        slots.finished(next.endpoint, timedOut);
        slots.trim(next.endpoint);
        ended.push(next);
        start();
      }
      now = until;
    },
  };
}

describe("Slots", () => {
  it("when several endpoints have work queued, then slots go round them one at a time, not down one queue", () => {
    const slots = new Slots(4, 4);
    slots.enqueue([...claimed("a", 10), ...claimed("b", 10), ...claimed("c", 1)]);

    expect(endpointsOf(slots.take())).toEqual(["a", "b", "c", "a"]);
    expect(slots.running()).toBe(4);
    expect(slots.queued()).toBe(17);
    expect(slots.take()).toEqual([]);
  });

  it("when an endpoint holds its share of attempts, then it gets no more until one ends, and the rest go to others", () => {
    const slots = new Slots(8, 2);
    slots.enqueue([...claimed("busy", 10), ...claimed("other", 1)]);

    expect(endpointsOf(slots.take())).toEqual(["busy", "other", "busy"]);
    expect(slots.take()).toEqual([]);
    slots.finished("busy", false);
    expect(endpointsOf(slots.take())).toEqual(["busy"]);
  });

  it("when an endpoint's attempt times out, then its share drops to one and grows back by one for each answer in time", () => {
    const slots = new Slots(8, 3);
    slots.enqueue(claimed("e", 20));
    expect(slots.take()).toHaveLength(3);
    slots.finished("e", true);
    // Slow: one attempt at a time, and two are still under way.
    expect(slots.take()).toHaveLength(0);
    slots.finished("e", true);
    slots.finished("e", true);
    expect(slots.take()).toHaveLength(1);
    expect(slots.take()).toHaveLength(0);
    slots.finished("e", false);
    expect(slots.take()).toHaveLength(2);
    slots.finished("e", false);
    slots.finished("e", false);
    expect(slots.take()).toHaveLength(3);
  });

  it("when 50 endpoints that never answer have work queued before a healthy one, then no slow endpoint starts an attempt while slow ones hold half the slots, and the healthy one is served in full once each hanging one has timed out", () => {
    const TIMEOUT = 3000;
    const CONCURRENCY = 32;
    const PER_ENDPOINT = 4;
    const ANSWER = 10;
    const slots = new Slots(CONCURRENCY, PER_ENDPOINT);
    for (let n = 0; n < 50; n++) slots.enqueue(claimed(`hanging-${n}`, PER_ENDPOINT));
    const healthy = claimed("healthy", 20);
    slots.enqueue(healthy);
    const isHanging = (endpoint: string) => endpoint.startsWith("hanging-");
    const sim = simulate(slots, {
      durationOf: (endpoint) => (isHanging(endpoint) ? TIMEOUT : ANSWER),
      timesOut: isHanging,
    });

    // Before any timeout: every slot holds a different endpoint, in turn.
    expect(new Set(sim.running.map((attempt) => attempt.endpoint)).size).toBe(CONCURRENCY);
    sim.runUntil(3 * TIMEOUT - 1);

    const slowStarts = sim.started.filter((attempt) => attempt.slow);
    expect(slowStarts.length).toBeGreaterThan(0);
    for (const attempt of slowStarts) {
      expect(attempt.slowUnderWay, `${attempt.endpoint} at ${attempt.startedAt}`).toBeLessThan(
        CONCURRENCY / 2,
      );
    }
    const served = sim.ended.filter((attempt) => attempt.endpoint === "healthy");
    expect(served.map((attempt) => attempt.id).sort()).toEqual(idsOf(healthy).sort());
    // The first round of timeouts finds 32 of the 50 slow, the second the other 18; from then
    // on the slow ones hold at most half the slots, and the healthy one runs 4 at a time.
    expect(Math.max(...served.map((attempt) => attempt.endsAt))).toBeLessThanOrEqual(
      2 * TIMEOUT + (20 / PER_ENDPOINT) * ANSWER,
    );
  });

  it("when an endpoint is dropped (gone or disabled), then every delivery queued for it comes back and none of them is taken", () => {
    const slots = new Slots(1, 1);
    const gone = claimed("gone", 5);
    const other = claimed("other", 2);
    slots.enqueue([...gone, ...other]);
    const [first] = slots.take();
    expect(first?.delivery.id).toBe(gone[0]?.delivery.id);

    expect(idsOf(slots.drop("gone"))).toEqual(idsOf(gone.slice(1)));
    expect(slots.queued()).toBe(2);
    slots.finished("gone", false);
    const taken = [...slots.take()];
    slots.finished("other", false);
    taken.push(...slots.take());
    slots.finished("other", false);
    expect(idsOf(taken)).toEqual(idsOf(other));
    expect(slots.take()).toEqual([]);
    expect(slots.drop("gone")).toEqual([]);
    expect(slots.drop("never-seen")).toEqual([]);
  });

  it("when an endpoint turns slow, then trimming it gives back all but one of its queue, and a well endpoint keeps its queue", () => {
    const slots = new Slots(4, 2);
    const slow = claimed("slow", 6);
    slots.enqueue([...slow, ...claimed("well", 6)]);
    slots.take();
    slots.finished("slow", true);
    slots.finished("well", false);

    expect(idsOf(slots.trim("slow"))).toEqual(idsOf(slow.slice(3)));
    expect(slots.trim("well")).toEqual([]);
    expect(slots.queued()).toBe(1 + 4);
  });

  it("when a taken delivery is cancelled, then its slot is free and the endpoint's share is as it was", () => {
    const slots = new Slots(2, 2);
    slots.enqueue(claimed("e", 4));
    expect(slots.take()).toHaveLength(2);
    slots.cancelled("e");
    slots.cancelled("e");
    expect(slots.running()).toBe(0);
    expect(slots.take()).toHaveLength(2);
  });

  it("when stopping, then dropAll gives back every queued delivery of every endpoint", () => {
    const slots = new Slots(1, 1);
    const queued = [...claimed("a", 3), ...claimed("b", 2)];
    slots.enqueue(queued);
    const [started] = slots.take();

    expect(idsOf(slots.dropAll()).sort()).toEqual(
      idsOf(queued.filter((item) => item !== started)).sort(),
    );
    expect(slots.queued()).toBe(0);
  });

  it("when asked how many to claim, then each endpoint wants its share times the lookahead less what it holds, and a slow one one in all", () => {
    const slots = new Slots(8, 2);
    slots.enqueue([...claimed("well", 3), ...claimed("slow", 3)]);
    slots.take();
    slots.finished("slow", true);

    // well: 2 × 16 less 1 queued and 2 running; slow: 1 less its 2 queued and 1 running.
    expect(slots.wantedByEndpoint(16)).toEqual({ well: 29, slow: 0 });
  });

  it("when deliveries were claimed before a time, then dropClaimedBefore gives back exactly those, of every endpoint, and the rest stay queued in order", () => {
    const slots = new Slots(4, 2);
    const at = (items: Queued[], claimedAt: number) =>
      items.map((item) => ({ ...item, claimedAt }));
    const early = [...at(claimed("a", 2), 0), ...at(claimed("b", 1), 5)];
    const onTime = [...at(claimed("a", 1), 10), ...at(claimed("b", 1), 20)];
    slots.enqueue([early[0], early[1], onTime[0], early[2], onTime[1]] as Queued[]);

    expect(idsOf(slots.dropClaimedBefore(10)).sort()).toEqual(idsOf(early).sort());
    expect(slots.queued()).toBe(2);
    expect(idsOf(slots.take()).sort()).toEqual(idsOf(onTime).sort());
  });

  it("when an endpoint has nothing queued or running and answered in time, then it is forgotten, while a slow one is kept", () => {
    const slots = new Slots(4, 2);
    slots.enqueue([...claimed("well", 1), ...claimed("slow", 1)]);
    slots.take();
    slots.finished("well", false);
    slots.finished("slow", true);

    expect(Object.keys(slots.wantedByEndpoint(1))).toEqual(["slow"]);
  });

  it("when slow endpoints wait, then as many of them run at once as half the slots, no fewer", () => {
    const slots = new Slots(4, 1);
    slots.enqueue([...claimed("s1", 2), ...claimed("s2", 2), ...claimed("s3", 2)]);
    slots.take();
    for (const id of ["s1", "s2", "s3"]) slots.finished(id, true);

    expect(endpointsOf(slots.take()).sort()).toEqual(["s1", "s2"]);
  });

  it("when an attempt is cancelled, then it no longer counts against the slow endpoints' half, whichever endpoint it was", () => {
    // Two slots: the slow ones may hold one.
    const slots = new Slots(2, 1);
    // A cancelled delivery is not queued again: one for each take below.
    slots.enqueue(claimed("slow", 5));
    slots.take();
    slots.finished("slow", true);
    expect(endpointsOf(slots.take())).toEqual(["slow"]);
    slots.cancelled("slow");
    expect(endpointsOf(slots.take())).toEqual(["slow"]);
    slots.cancelled("slow");

    slots.enqueue(claimed("well", 1));
    expect(endpointsOf(slots.take()).sort()).toEqual(["slow", "well"]);
    slots.cancelled("well");
    slots.cancelled("slow");
    expect(endpointsOf(slots.take())).toEqual(["slow"]);
  });

  it("when every delivery queued for an endpoint was claimed before the time, then all of them come back", () => {
    const slots = new Slots(4, 2);
    const stale = claimed("stale", 3);
    const fresh = claimed("fresh", 1).map((item) => ({ ...item, claimedAt: 10 }));
    slots.enqueue([...stale, ...fresh]);

    expect(idsOf(slots.dropClaimedBefore(10))).toEqual(idsOf(stale));
    expect(slots.queued()).toBe(1);
    expect(idsOf(slots.take())).toEqual(idsOf(fresh));
  });

  it("when a well endpoint's attempt is cancelled while a slow one runs, then the slow one still holds the slow endpoints' half", () => {
    // Two slots: the slow ones may hold one.
    const slots = new Slots(2, 1);
    slots.enqueue([...claimed("s1", 3), ...claimed("s2", 3)]);
    slots.take();
    slots.finished("s1", true);
    slots.finished("s2", true);
    // s1 runs; s2 waits, the slow half being full.
    expect(endpointsOf(slots.take())).toEqual(["s1"]);
    slots.enqueue(claimed("well", 2));
    expect(endpointsOf(slots.take())).toEqual(["well"]);
    slots.cancelled("well");

    // The free slot goes to the well endpoint again, never to a second slow one.
    expect(endpointsOf(slots.take())).toEqual(["well"]);
    slots.cancelled("well");
    expect(slots.take()).toEqual([]);
    expect(slots.running()).toBe(1);
  });

  it("when an endpoint's queue empties while an attempt of it still runs, then it is kept, and that attempt counts against its share", () => {
    const slots = new Slots(8, 2);
    slots.enqueue(claimed("e", 2));
    expect(slots.take()).toHaveLength(2);
    slots.finished("e", false);

    // Still known: one attempt runs, and its share of 2 leaves room for one more.
    expect(slots.wantedByEndpoint(1)).toEqual({ e: 1 });
    slots.enqueue(claimed("e", 3));
    expect(slots.take()).toHaveLength(1);
    slots.finished("e", false);
    expect(slots.take()).toHaveLength(1);
    expect(slots.running()).toBe(2);
  });
});
