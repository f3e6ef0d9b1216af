// The webhook delivery loop, one per delivering process. It polls the store with a read, and
// when something is due claims at most as many deliveries as it has free slots (overall, and
// per endpoint, so a slow endpoint holds only its own slots), sends each, and records how it
// went. The backlog stays in the store: memory is bounded by the slots. Stopping aborts the
// attempts under way and gives their claims back, so another instance may send them at once.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Registry } from "prom-client";
import type { ClaimedDelivery, WebhookStore } from "../store/webhooks.ts";
import { createDelivererMetrics } from "./deliverer-metrics.ts";
import { recordOf } from "./retry-schedule.ts";
import { signatureHeaders } from "./signature.ts";
import { createSlots, type Queued } from "./slots.ts";
import { startUpkeep } from "./upkeep.ts";

export interface DelivererSettings {
  timeoutMs: number;
  retryScheduleMs: readonly number[];
  retentionMs: number;
  allowPrivate: boolean;
  leaseMs: number;
  concurrency: number;
  endpointConcurrency: number;
}

interface Log {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface DelivererOptions {
  store: WebhookStore;
  settings: DelivererSettings;
  log: Log;
  registry: Registry;
  /** How often an idle deliverer looks for due deliveries. */
  pollMs?: number;
}

export interface Deliverer {
  /** Aborts attempts under way, gives their claims back, and stops polling. */
  stop(): Promise<void>;
}

const IDLE_POLL_MS = 250;
// After a store error, before trying again; it is logged once per failure.
const ERROR_PAUSE_MS = 1000;
// Deliveries claimed per slot of an endpoint's share: a claim is a write, so one feeds several
// sends. At 4, one busy endpoint on PostgreSQL was held to a claim's round trips (about 400 a
// second, thousands left pending 10 s after the bench's load); at 16 it drains as on SQLite.
const CLAIM_AHEAD = 16;

export function startDeliverer(options: DelivererOptions): Deliverer {
  const { store, settings, log } = options;
  const pollMs = options.pollMs ?? IDLE_POLL_MS;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const metrics = createDelivererMetrics(options.registry);
  const slots = createSlots(settings.concurrency, settings.endpointConcurrency);
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  // Outcomes being written: a slot is free once the answer is in, not once it is recorded.
  const recording = new Set<Promise<void>>();
  // Claims to give back: their lease would end mid-attempt, or their endpoint went away.
  const toRelease: string[] = [];
  // The endpoint the last claim ended with: the next claim starts after it, round them all.
  let claimedUpTo: string | undefined;
  let stopping = false;
  let wake: (() => void) | undefined;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, ms));
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = undefined;
    });

  async function attempt(delivery: ClaimedDelivery, controller: AbortController): Promise<boolean> {
    // The sender (undici, a megabyte of code) is loaded by the first attempt, not by every start.
    const { sendWebhookAttempt } = await import("./send.ts");
    const headers = signatureHeaders({
      id: delivery.id,
      timestampSeconds: Date.now() / 1000,
      body: delivery.body,
      secrets: delivery.secrets,
    });
    const result = await sendWebhookAttempt({
      url: delivery.url,
      headers: { ...headers, "user-agent": "plantstore-webhooks/1" },
      body: delivery.body,
      timeoutMs: settings.timeoutMs,
      allowPrivate: settings.allowPrivate,
      signal: controller.signal,
      pool: { key: delivery.endpointId, connections: settings.endpointConcurrency },
    });
    // Stopping: the claim is given back rather than counted as a failed attempt.
    if (controller.signal.aborted) return false;
    const record = recordOf(result, delivery.attempts, settings.retryScheduleMs);
    metrics.attempt(record.kind, result.durationMs / 1000);
    log.info(
      {
        endpoint: delivery.endpointId,
        delivery: delivery.id,
        attempt: delivery.attempts + 1,
        status: result.kind === "answered" ? result.status : null,
        error: result.kind === "failed" ? result.error : undefined,
        outcome: record.kind,
        durationMs: result.durationMs,
      },
      "webhook attempt",
    );
    // 410 Gone: nothing more is sent to it; what was claimed for it goes back.
    if (record.kind === "gone") endpointGone(delivery.endpointId);
    const written: Promise<void> = store
      .complete(delivery.id, owner, record)
      .then(
        () => undefined,
        (error: unknown) =>
          log.warn({ err: error, delivery: delivery.id }, "webhook attempt not recorded"),
      )
      .finally(() => recording.delete(written));
    recording.add(written);
    return result.kind === "failed" && result.timedOut;
  }

  function endpointGone(endpointId: string): void {
    for (const { delivery } of slots.drop(endpointId)) toRelease.push(delivery.id);
    void import("./send.ts").then(({ closePool }) => closePool(endpointId));
  }

  function start({ delivery }: Queued): void {
    const controller = new AbortController();
    const done = attempt(delivery, controller)
      .catch((error: unknown) => {
        log.warn({ err: error, delivery: delivery.id }, "webhook attempt not recorded");
        return false;
      })
      .then((timedOut) => {
        slots.finished(delivery.endpointId, timedOut);
        for (const { delivery: extra } of slots.trim(delivery.endpointId)) {
          toRelease.push(extra.id);
        }
        running.delete(delivery.id);
        void pump().then(() => {
          // Claim again once the queues run low (a claim is a write), or when slots stand
          // idle with work queued only for slow endpoints: other endpoints may have some due.
          const low = slots.queued() <= (settings.concurrency * CLAIM_AHEAD) / 2;
          if (low || slots.running() < settings.concurrency) wake?.();
        });
      });
    running.set(delivery.id, { controller, done });
  }

  /**
   * Starts queued deliveries in free slots, round the endpoints. One whose lease would end
   * mid-attempt goes back; so does every one of an endpoint deleted or disabled meanwhile
   * (looked up once for each endpoint about to be sent to), and none is sent to it.
   */
  let pumping: Promise<void> | undefined;
  let pumpAgain = false;
  function pump(): Promise<void> {
    if (stopping) return Promise.resolve();
    if (pumping !== undefined) {
      pumpAgain = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        pumpAgain = false;
        await startNext();
      } while (pumpAgain && !stopping);
    })().finally(() => {
      pumping = undefined;
    });
    return pumping;
  }

  async function startNext(): Promise<void> {
    const latestStart = Date.now() - settings.leaseMs + settings.timeoutMs;
    const next = slots.take();
    const live = new Map<string, boolean>();
    for (const id of new Set(next.map((item) => item.delivery.endpointId))) {
      const endpoint = await store.getEndpoint(id).catch(() => undefined);
      live.set(id, endpoint !== undefined && endpoint.disabledAt === null);
    }
    for (const item of next) {
      const { endpointId, id } = item.delivery;
      if (stopping || !live.get(endpointId) || item.claimedAt < latestStart) {
        slots.cancelled(endpointId);
        toRelease.push(id);
        if (live.get(endpointId) === false) endpointGone(endpointId);
      } else {
        start(item);
      }
    }
  }

  /** Claims what is due into the queues; true when the claim was full (more may be due). */
  async function claimDue(): Promise<{ full: boolean; nextInMs: number }> {
    if (toRelease.length > 0) await store.release(owner, toRelease.splice(0));
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
    await pump();
    return { full: claimed.length === room, nextInMs: pollMs };
  }

  async function loop(): Promise<void> {
    let failing = false;
    while (!stopping) {
      try {
        const { full, nextInMs } = await claimDue();
        failing = false;
        if (!full) await pause(nextInMs);
      } catch (error) {
        if (!failing) log.warn({ err: error }, "webhook deliveries cannot be claimed; retrying");
        failing = true;
        await pause(ERROR_PAUSE_MS);
      }
    }
  }

  const upkeep = startUpkeep({
    store,
    metrics,
    retentionMs: settings.retentionMs,
    warn: (fields, message) => log.warn(fields, message),
  });
  const looping = loop();

  return {
    async stop() {
      stopping = true;
      upkeep.stop();
      wake?.();
      await looping;
      const ids = [...running.keys(), ...toRelease.splice(0)];
      for (const { delivery } of slots.dropAll()) ids.push(delivery.id);
      for (const { controller } of running.values()) controller.abort();
      await Promise.all([...running.values()].map(({ done }) => done));
      await Promise.all(recording);
      await store.release(owner, ids);
    },
  };
}

/** Of endpoint ids taken in turn after `after` (then round from the first), the last one. */
function lastInTurn(ids: readonly string[], after: string | undefined): string | undefined {
  const later = ids.filter((id) => after === undefined || id > after);
  const pool = later.length > 0 ? later : ids;
  return pool.reduce<string | undefined>(
    (last, id) => (last === undefined || id > last ? id : last),
    undefined,
  );
}
