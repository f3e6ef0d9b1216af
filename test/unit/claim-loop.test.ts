// The deliverer's claim loop (src/webhooks/claim-loop.ts) on doubles of the store, the slots and
// the dispatch, with vitest's fake timers as its clock: what it gives back and claims, how much,
// after which endpoint, when it waits and for how long, and what wakes it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClaimedDelivery, ClaimRequest, WebhookStore } from "../../src/store/webhooks.ts";
import { type ClaimLoop, startClaimLoop } from "../../src/webhooks/claim-loop.ts";
import type { DelivererSettings } from "../../src/webhooks/deliverer.ts";
import type { Slots } from "../../src/webhooks/slots.ts";

const POLL_MS = 1000;
const settings = { concurrency: 2, endpointConcurrency: 3, leaseMs: 60_000 } as DelivererSettings;
// The loop's room: concurrency × 16 deliveries claimed ahead.
const ROOM = 32;

const delivery = (id: string, endpointId: string) => ({ id, endpointId }) as ClaimedDelivery;

function doubles() {
  const state = { running: 0, queued: 0, due: 0 as number | null, releases: [] as string[] };
  const claims: ClaimRequest[] = [];
  let answer: (request: ClaimRequest) => ClaimedDelivery[] = () => [];
  const store = {
    release: vi.fn(async () => {}),
    nextDueInMs: vi.fn(async () => state.due),
    claim: vi.fn(async (request: ClaimRequest) => {
      claims.push(request);
      return answer(request);
    }),
  };
  const slots = {
    running: () => state.running,
    queued: () => state.queued,
    wantedByEndpoint: (ahead: number) => ({ ahead }),
    enqueue: vi.fn(),
  };
  const dispatch = {
    pump: vi.fn(async () => {}),
    takeReleases: () => state.releases.splice(0),
  };
  const warn = vi.fn();
  const start = (): ClaimLoop =>
    startClaimLoop({
      store: store as unknown as WebhookStore,
      settings,
      warn,
      owner: "owner-1",
      slots: slots as unknown as Slots,
      dispatch,
      pollMs: POLL_MS,
    });
  return {
    state,
    claims,
    store,
    slots,
    dispatch,
    warn,
    start,
    answer: (next: typeof answer) => {
      answer = next;
    },
  };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

let loop: ClaimLoop | undefined;
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(50_000);
});
afterEach(async () => {
  await loop?.stop();
  loop = undefined;
  vi.useRealTimers();
});

describe("the claim loop", () => {
  it("when the dispatch set claims aside, then they are given back before the claim, and nothing is given back when none were", async () => {
    const d = doubles();
    d.state.releases.push("d1", "d2");
    loop = d.start();
    await settle();
    expect(d.store.release.mock.calls).toEqual([["owner-1", ["d1", "d2"]]]);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(d.store.release).toHaveBeenCalledTimes(1);
  });

  it("when deliveries are due, then it claims as many as the queues have room for, with the loop's owner, lease and shares", async () => {
    const d = doubles();
    d.state.running = 3;
    d.state.queued = 5;
    loop = d.start();
    await settle();
    expect(d.claims).toEqual([
      {
        owner: "owner-1",
        leaseMs: 60_000,
        limit: ROOM - 3 - 5,
        perEndpoint: 3,
        free: { ahead: 16 },
        after: undefined,
      },
    ]);
  });

  it("when the queues have no room, then it neither reads nor claims and looks again after a poll", async () => {
    const d = doubles();
    d.state.running = 2;
    d.state.queued = ROOM - 2;
    loop = d.start();
    await settle();
    expect(d.store.nextDueInMs).not.toHaveBeenCalled();
    expect(d.claims).toEqual([]);
    d.state.queued = 0;
    await vi.advanceTimersByTimeAsync(POLL_MS - 1);
    expect(d.claims).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(d.claims).toHaveLength(1);
  });

  it("when nothing is due, then it claims nothing and reads again after a poll", async () => {
    const d = doubles();
    d.state.due = null;
    loop = d.start();
    await settle();
    expect(d.store.nextDueInMs).toHaveBeenCalledTimes(1);
    expect(d.claims).toEqual([]);
    await vi.advanceTimersByTimeAsync(POLL_MS - 1);
    expect(d.store.nextDueInMs).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(d.store.nextDueInMs).toHaveBeenCalledTimes(2);
  });

  it("when the next delivery falls due before a poll, then it reads again when it does, not a poll later", async () => {
    const d = doubles();
    d.state.due = 300;
    loop = d.start();
    await settle();
    expect(d.claims).toEqual([]);
    await vi.advanceTimersByTimeAsync(299);
    expect(d.store.nextDueInMs).toHaveBeenCalledTimes(1);
    d.state.due = 0;
    await vi.advanceTimersByTimeAsync(1);
    expect(d.claims).toHaveLength(1);
  });

  it("when the next delivery falls due after a poll, then it reads again after the poll", async () => {
    const d = doubles();
    d.state.due = 5000;
    loop = d.start();
    await settle();
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(d.store.nextDueInMs).toHaveBeenCalledTimes(2);
  });

  it("when deliveries are claimed, then they are queued with the time of the claim and the dispatch is pumped", async () => {
    const d = doubles();
    d.answer(() => [delivery("a", "e1")]);
    loop = d.start();
    await settle();
    expect(d.slots.enqueue.mock.calls[0]).toEqual([
      [{ delivery: delivery("a", "e1"), claimedAt: 50_000 }],
    ]);
    expect(d.dispatch.pump).toHaveBeenCalledTimes(1);
  });

  it("when claims follow one another, then each starts after the last endpoint of the one before, and one that came round is that last", async () => {
    const d = doubles();
    const answers = [
      [delivery("a", "e1"), delivery("b", "e3"), delivery("c", "e2")],
      // After e3: e4, then round to e1, so the next claim starts at e2, not at e1 again.
      [delivery("d", "e4"), delivery("e", "e1")],
      [delivery("f", "e2"), delivery("g", "e3")],
      // After e3 all the way round to e3 itself: the next claim starts after e3 again.
      [delivery("h", "e4"), delivery("i", "e1"), delivery("j", "e3")],
    ];
    d.answer(() => answers.shift() ?? []);
    loop = d.start();
    await settle();
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(d.claims.map((claim) => claim.after)).toEqual([undefined, "e3", "e1", "e3", "e3"]);
  });

  it("when a claim fills the room, then it claims again at once; when it does not, it waits a poll", async () => {
    const d = doubles();
    let claimed = 0;
    d.answer((request) => {
      claimed += 1;
      return claimed === 1
        ? Array.from({ length: request.limit }, (_, i) => delivery(`d${i}`, "e1"))
        : [delivery("x", "e1")];
    });
    loop = d.start();
    await settle();
    expect(d.claims).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(POLL_MS - 1);
    expect(d.claims).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(d.claims).toHaveLength(3);
  });

  it("when the store keeps failing, then it warns once, tries again each second, and warns again after it has recovered and fails anew", async () => {
    const d = doubles();
    const down = new Error("store down");
    d.store.nextDueInMs.mockRejectedValue(down);
    loop = d.start();
    await settle();
    expect(d.warn.mock.calls).toEqual([
      [{ err: down }, "webhook deliveries cannot be claimed; retrying"],
    ]);
    await vi.advanceTimersByTimeAsync(999);
    expect(d.store.nextDueInMs).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(d.store.nextDueInMs).toHaveBeenCalledTimes(2);
    expect(d.warn).toHaveBeenCalledTimes(1);

    d.store.nextDueInMs.mockResolvedValue(null);
    await vi.advanceTimersByTimeAsync(1000);
    expect(d.warn).toHaveBeenCalledTimes(1);
    d.store.nextDueInMs.mockRejectedValue(new Error("store down again"));
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(d.warn).toHaveBeenCalledTimes(2);
  });

  /** An idle loop (nothing due) with these slots; a delivery falls due and a slot comes free. */
  async function slotFreedWith(running: number, queued: number) {
    const d = doubles();
    d.state.due = null;
    d.state.running = running;
    d.state.queued = queued;
    loop = d.start();
    await settle();
    d.state.due = 0;
    loop.slotFreed();
    await settle();
    return d;
  }

  it("when a slot comes free while the queues are low, then it claims at once", async () => {
    const d = await slotFreedWith(settings.concurrency, ROOM / 2);
    expect(d.claims).toHaveLength(1);
  });

  it("when a slot comes free with slots idle, then it claims at once, even with the queues full", async () => {
    const d = await slotFreedWith(settings.concurrency - 1, ROOM / 2 + 1);
    expect(d.claims).toHaveLength(1);
  });

  it("when a slot comes free with every slot busy and the queues above half, then it waits for the poll", async () => {
    const d = await slotFreedWith(settings.concurrency, ROOM / 2 + 1);
    expect(d.claims).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(d.claims).toHaveLength(1);
  });

  /** The first claim frees a slot while it runs (an attempt ended meanwhile). */
  const freeASlotDuringTheFirstClaim = (d: ReturnType<typeof doubles>): void => {
    let freed = false;
    d.answer(() => {
      if (!freed) {
        freed = true;
        loop?.slotFreed();
      }
      return [delivery("a", "e1")];
    });
  };

  it("when a slot comes free during a claim, then the wait after it ends at once", async () => {
    const d = doubles();
    freeASlotDuringTheFirstClaim(d);
    loop = d.start();
    await settle();
    expect(d.claims).toHaveLength(2);
  });

  it("when a slot comes free during a claim that followed a poll, then the wait after it ends at once too", async () => {
    const d = doubles();
    d.state.due = null;
    freeASlotDuringTheFirstClaim(d);
    loop = d.start();
    await settle();
    d.state.due = 0;
    // The poll's wait ends on its own; the claim after it is woken during.
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(d.claims).toHaveLength(2);
  });

  it("when stopped, then it claims no more", async () => {
    const d = doubles();
    d.state.due = null;
    loop = d.start();
    await settle();
    await loop.stop();
    loop = undefined;
    await vi.advanceTimersByTimeAsync(5 * POLL_MS);
    expect(d.store.nextDueInMs).toHaveBeenCalledTimes(1);
  });
});
