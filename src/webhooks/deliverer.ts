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
import type { sendWebhookAttempt as SendAttempt } from "./send.ts";
import { signatureHeaders } from "./signature.ts";

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
const BACKLOG_EVERY_MS = 10_000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
const PURGE_BATCH = 1000;
// Deliveries claimed per slot: a claim is a write, so one feeds several sends.
const CLAIM_AHEAD = 8;

export function startDeliverer(options: DelivererOptions): Deliverer {
  const { store, settings, log } = options;
  const pollMs = options.pollMs ?? IDLE_POLL_MS;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const metrics = createDelivererMetrics(options.registry);
  // Claimed ahead of their slots, so one claim feeds many sends; claimedAt tells whether an
  // attempt started now still ends within its lease.
  const queued = new Map<string, { delivery: ClaimedDelivery; claimedAt: number }[]>();
  let queuedCount = 0;
  const perEndpoint = new Map<string, number>();
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  // Outcomes being written: a slot is free once the answer is in, not once it is recorded.
  const recording = new Set<Promise<void>>();
  const expired: string[] = [];
  let stopping = false;
  // The sender (undici, a megabyte of code) is loaded by the first delivery, not by every start.
  let sendWebhookAttempt: typeof SendAttempt | undefined;
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

  async function attempt(delivery: ClaimedDelivery, controller: AbortController): Promise<void> {
    sendWebhookAttempt ??= (await import("./send.ts")).sendWebhookAttempt;
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
    });
    // Stopping: the claim is given back rather than counted as a failed attempt.
    if (controller.signal.aborted) return;
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
    const written: Promise<void> = store
      .complete(delivery.id, owner, record)
      .then(
        () => undefined,
        (error: unknown) =>
          log.warn({ err: error, delivery: delivery.id }, "webhook attempt not recorded"),
      )
      .finally(() => recording.delete(written));
    recording.add(written);
  }

  function start(delivery: ClaimedDelivery): void {
    const controller = new AbortController();
    perEndpoint.set(delivery.endpointId, (perEndpoint.get(delivery.endpointId) ?? 0) + 1);
    const done = attempt(delivery, controller)
      .catch((error: unknown) =>
        log.warn({ err: error, delivery: delivery.id }, "webhook attempt not recorded"),
      )
      .finally(() => {
        const left = (perEndpoint.get(delivery.endpointId) ?? 1) - 1;
        if (left === 0) perEndpoint.delete(delivery.endpointId);
        else perEndpoint.set(delivery.endpointId, left);
        running.delete(delivery.id);
        pump();
        // Claim again only once the queues run low: a claim is a write.
        if (queuedCount <= (settings.concurrency * CLAIM_AHEAD) / 2) wake?.();
      });
    running.set(delivery.id, { controller, done });
  }

  /** Starts queued deliveries in free slots; one whose lease would end mid-attempt goes back. */
  function pump(): void {
    if (stopping) return;
    const latestStart = Date.now() - settings.leaseMs + settings.timeoutMs;
    for (const [endpoint, queue] of queued) {
      while (
        queue.length > 0 &&
        running.size < settings.concurrency &&
        (perEndpoint.get(endpoint) ?? 0) < settings.endpointConcurrency
      ) {
        const next = queue.shift() as { delivery: ClaimedDelivery; claimedAt: number };
        queuedCount--;
        if (next.claimedAt < latestStart) expired.push(next.delivery.id);
        else start(next.delivery);
      }
      if (queue.length === 0) queued.delete(endpoint);
    }
  }

  /** Claims what is due into the queues; true when the claim was full (more may be due). */
  async function claimDue(): Promise<{ full: boolean; nextInMs: number }> {
    if (expired.length > 0) await store.release(owner, expired.splice(0));
    const ahead = settings.endpointConcurrency * CLAIM_AHEAD;
    const room = settings.concurrency * CLAIM_AHEAD - running.size - queuedCount;
    if (room <= 0) return { full: false, nextInMs: pollMs };
    const due = await store.nextDueInMs();
    if (due === null || due > 0) return { full: false, nextInMs: Math.min(pollMs, due ?? pollMs) };
    const free: Record<string, number> = {};
    for (const endpoint of new Set([...perEndpoint.keys(), ...queued.keys()])) {
      const held = (perEndpoint.get(endpoint) ?? 0) + (queued.get(endpoint)?.length ?? 0);
      free[endpoint] = Math.max(0, ahead - held);
    }
    const claimed = await store.claim({
      owner,
      leaseMs: settings.leaseMs,
      limit: room,
      perEndpoint: ahead,
      free,
    });
    const claimedAt = Date.now();
    for (const delivery of claimed) {
      const queue = queued.get(delivery.endpointId) ?? [];
      queue.push({ delivery, claimedAt });
      queued.set(delivery.endpointId, queue);
    }
    queuedCount += claimed.length;
    pump();
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

  async function refreshBacklog(): Promise<void> {
    const { pending, oldestCreatedAt } = await store.backlog();
    const age = oldestCreatedAt === null ? 0 : (Date.now() - oldestCreatedAt.getTime()) / 1000;
    metrics.backlog(pending, Math.max(0, age));
  }

  async function purge(): Promise<void> {
    const before = new Date(Date.now() - settings.retentionMs);
    // Bounded batches, each its own short write, until one comes back short.
    while (!stopping && (await store.purge(before, PURGE_BATCH)) === PURGE_BATCH) {}
  }

  const quietly = (work: () => Promise<void>, what: string) => () =>
    void work().catch((error: unknown) => log.warn({ err: error }, what));
  const backlogTimer = setInterval(
    quietly(refreshBacklog, "webhook backlog not read"),
    BACKLOG_EVERY_MS,
  );
  const purgeTimer = setInterval(quietly(purge, "webhook deliveries not purged"), PURGE_EVERY_MS);
  backlogTimer.unref();
  purgeTimer.unref();
  quietly(refreshBacklog, "webhook backlog not read")();
  quietly(purge, "webhook deliveries not purged")();
  const looping = loop();

  return {
    async stop() {
      stopping = true;
      clearInterval(backlogTimer);
      clearInterval(purgeTimer);
      wake?.();
      await looping;
      const ids = [...running.keys(), ...expired.splice(0)];
      for (const queue of queued.values()) for (const { delivery } of queue) ids.push(delivery.id);
      queued.clear();
      for (const { controller } of running.values()) controller.abort();
      await Promise.all([...running.values()].map(({ done }) => done));
      await Promise.all(recording);
      await store.release(owner, ids);
    },
  };
}
