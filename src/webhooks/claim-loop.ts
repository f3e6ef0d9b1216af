// The deliverer's claim loop: it polls the store with a read, and when something is due claims
// at most as many deliveries as the slots' queues have room for, round the endpoints, and hands
// them to the dispatch. It gives back the claims the dispatch set aside before each claim.
import type { WebhookStore } from "../store/webhooks.ts";
import type { DelivererSettings } from "./deliverer.ts";
import type { Dispatch } from "./dispatch.ts";
import type { Slots } from "./slots.ts";

// After a store error, before trying again; it is logged once per failure.
const ERROR_PAUSE_MS = 1000;
// Deliveries claimed per slot of an endpoint's share: a claim is a write, so one feeds several
// sends. At 4, one busy endpoint on PostgreSQL was held to a claim's round trips (about 400 a
// second, thousands left pending 10 s after the bench's load); at 16 it drains as on SQLite.
const CLAIM_AHEAD = 16;

export interface ClaimLoopOptions {
  store: WebhookStore;
  settings: DelivererSettings;
  warn: (fields: object, message: string) => void;
  owner: string;
  slots: Slots;
  dispatch: Pick<Dispatch, "pump" | "takeReleases">;
  /** How often an idle loop looks for due deliveries. */
  pollMs: number;
}

export interface ClaimLoop {
  /** A slot came free: claims at once if the queues run low or slots stand idle. */
  slotFreed(): void;
  /** Ends the loop, once the claim under way is done. */
  stop(): Promise<void>;
}

export function startClaimLoop(options: ClaimLoopOptions): ClaimLoop {
  const { store, settings, warn, owner, slots, dispatch, pollMs } = options;
  const pause = createPause();
  // The endpoint the last claim ended with: the next claim starts after it, round them all.
  let claimedUpTo: string | undefined;
  let stopping = false;

  /** Claims what is due into the queues; `full` when the claim was (more may be due). */
  async function claimDue(): Promise<{ full: boolean; nextInMs: number }> {
    const toRelease = dispatch.takeReleases();
    if (toRelease.length > 0) await store.release(owner, toRelease);
    const room = settings.concurrency * CLAIM_AHEAD - slots.running() - slots.queued();
    if (room <= 0) return { full: false, nextInMs: pollMs };
    const due = await store.nextDueInMs();
    if (due === null || due > 0) return { full: false, nextInMs: Math.min(pollMs, due ?? pollMs) };
    const claimed = await store.claim({
      owner,
      leaseMs: settings.leaseMs,
      limit: room,
      // An endpoint not seen yet gets one delivery for each attempt it may make at once, so a
      // claim spreads over many endpoints; once it answers, CLAIM_AHEAD times as many.
      perEndpoint: settings.endpointConcurrency,
      free: slots.wantedByEndpoint(CLAIM_AHEAD),
      after: claimedUpTo,
    });
    const claimedAt = Date.now();
    slots.enqueue(claimed.map((delivery) => ({ delivery, claimedAt })));
    claimedUpTo = lastInTurn(
      claimed.map((delivery) => delivery.endpointId),
      claimedUpTo,
    );
    await dispatch.pump();
    return { full: claimed.length === room, nextInMs: pollMs };
  }

  async function loop(): Promise<void> {
    let failing = false;
    while (!stopping) {
      try {
        const { full, nextInMs } = await claimDue();
        failing = false;
        if (!full) await pause.for(nextInMs);
      } catch (error) {
        if (!failing) warn({ err: error }, "webhook deliveries cannot be claimed; retrying");
        failing = true;
        await pause.for(ERROR_PAUSE_MS);
      }
    }
  }

  const looping = loop();
  return {
    slotFreed() {
      // Claim again once the queues run low (a claim is a write), or when slots stand idle
      // with work queued only for slow endpoints: other endpoints may have some due.
      const low = slots.queued() <= (settings.concurrency * CLAIM_AHEAD) / 2;
      if (low || slots.running() < settings.concurrency) pause.wake();
    },
    async stop() {
      stopping = true;
      pause.wake();
      await looping;
    },
  };
}

/**
 * A wait that can be cut short: `wake` ends the one under way, or, between waits (a claim under
 * way), the next one at once, so that a slot freed meanwhile is never left idle for a poll.
 */
function createPause(): { for(ms: number): Promise<void>; wake(): void } {
  let wake: (() => void) | undefined;
  let woken = false;
  return {
    for: (ms) => {
      if (woken) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, ms));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }).finally(() => {
        wake = undefined;
      });
    },
    wake: () => {
      if (wake === undefined) woken = true;
      else wake();
    },
  };
}

/**
 * Of endpoint ids taken in turn after `after` (then round from the first), the last one: the
 * largest of those that came round, if any did, else the largest.
 */
function lastInTurn(ids: readonly string[], after: string | undefined): string | undefined {
  const round = ids.filter((id) => after !== undefined && id <= after);
  const pool = round.length > 0 ? round : ids;
  return pool.reduce<string | undefined>(
    (last, id) => (last === undefined || id > last ? id : last),
    undefined,
  );
}
