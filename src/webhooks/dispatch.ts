// The deliverer's sending side: it starts claimed deliveries in free slots, round the endpoints,
// sends each and records how it went. Claims it will not send (their lease would end
// mid-attempt, their endpoint went away) wait here until the claim loop gives them back.
import { EVENT_HEADER } from "../store/tables.ts";
import type { ClaimedDelivery, WebhookStore } from "../store/webhooks.ts";
import type { DelivererLog, DelivererSettings } from "./deliverer.ts";
import type { DelivererMetrics } from "./deliverer-metrics.ts";
import { recordOf } from "./retry-schedule.ts";
import type { AttemptResult } from "./send.ts";
import { signatureHeaders } from "./signature.ts";
import type { Queued, Slots } from "./slots.ts";

export interface DispatchOptions {
  store: WebhookStore;
  settings: DelivererSettings;
  log: DelivererLog;
  metrics: DelivererMetrics;
  owner: string;
  slots: Slots;
  /** An attempt ended and its slot is free (its outcome may still be being written). */
  slotFreed: () => void;
}

export class Dispatch {
  private readonly running = new Map<
    string,
    { controller: AbortController; done: Promise<void> }
  >();
  // Outcomes being written: a slot is free once the answer is in, not once it is recorded.
  private readonly recording = new Set<Promise<void>>();
  // Claims to give back: their lease would end mid-attempt, or their endpoint went away.
  private toRelease: string[] = [];
  private stopping = false;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;

  constructor(private readonly options: DispatchOptions) {}

  /** The claims to give back, taken out. */
  takeReleases(): string[] {
    return this.toRelease.splice(0);
  }

  /**
   * Starts queued deliveries in free slots, round the endpoints. One run at a time: asked
   * again meanwhile, the run goes round once more.
   */
  pump(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    if (this.pumping !== undefined) {
      this.pumpAgain = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      do {
        this.pumpAgain = false;
        await this.startNext();
      } while (this.pumpAgain && !this.stopping);
    })().finally(() => {
      this.pumping = undefined;
    });
    return this.pumping;
  }

  /** Nothing more is started. */
  stopStarting(): void {
    this.stopping = true;
  }

  /**
   * Aborts the attempts under way and waits for them and the outcomes being written; the ids
   * of every claim to give back (those aborted, queued or set aside).
   */
  async abortAll(): Promise<string[]> {
    const ids = [...this.running.keys(), ...this.toRelease.splice(0)];
    for (const { delivery } of this.options.slots.dropAll()) ids.push(delivery.id);
    for (const { controller } of this.running.values()) controller.abort();
    await Promise.all([...this.running.values()].map(({ done }) => done));
    await Promise.all(this.recording);
    return ids;
  }

  /**
   * Every one whose lease would end mid-attempt goes back, all at once (taken back one a turn,
   * a queue longer than a lease's margin holds never drained); so does every one of an endpoint
   * deleted or disabled meanwhile (looked up once for each endpoint about to be sent to), and
   * none is sent to it.
   */
  private async startNext(): Promise<void> {
    const { store, settings, slots } = this.options;
    const latestStart = () => Date.now() - settings.leaseMs + settings.timeoutMs;
    for (const { delivery } of slots.dropClaimedBefore(latestStart())) {
      this.toRelease.push(delivery.id);
    }
    const next = slots.take();
    const live = new Map<string, boolean>();
    for (const id of new Set(next.map((item) => item.delivery.endpointId))) {
      const endpoint = await store.getEndpoint(id).catch(() => undefined);
      live.set(id, endpoint !== undefined && endpoint.disabledAt === null);
    }
    const startBy = latestStart();
    for (const item of next) {
      const { endpointId, id } = item.delivery;
      if (this.stopping || !live.get(endpointId) || item.claimedAt < startBy) {
        slots.cancelled(endpointId);
        this.toRelease.push(id);
        if (live.get(endpointId) === false) this.endpointGone(endpointId);
      } else {
        this.start(item);
      }
    }
  }

  private start({ delivery }: Queued): void {
    const { log, slots } = this.options;
    const controller = new AbortController();
    const done = this.attempt(delivery, controller.signal)
      .catch((error: unknown) => {
        log.warn({ err: error, delivery: delivery.id }, "webhook attempt not recorded");
        return false;
      })
      .then((timedOut) => {
        slots.finished(delivery.endpointId, timedOut);
        for (const { delivery: extra } of slots.trim(delivery.endpointId)) {
          this.toRelease.push(extra.id);
        }
        this.running.delete(delivery.id);
        void this.pump().then(() => this.options.slotFreed());
      });
    this.running.set(delivery.id, { controller, done });
  }

  /** Sends the delivery and records how it went; true when it got no answer in time. */
  private async attempt(delivery: ClaimedDelivery, signal: AbortSignal): Promise<boolean> {
    const { store, settings, log, metrics, owner } = this.options;
    const result = await sendSigned(delivery, settings, signal);
    // Stopping: the claim is given back rather than counted as a failed attempt.
    if (signal.aborted) return false;
    const record = recordOf(result, delivery.attempts, settings.retryScheduleMs);
    metrics.attempt(record.kind, result.durationMs / 1000);
    log.info(attemptFields(delivery, result, record.kind), "webhook attempt");
    // 410 Gone: nothing more is sent to it; what was claimed for it goes back.
    if (record.kind === "gone") this.endpointGone(delivery.endpointId);
    const written: Promise<void> = store
      .complete(delivery.id, owner, record)
      .then(
        () => undefined,
        (error: unknown) =>
          log.warn({ err: error, delivery: delivery.id }, "webhook attempt not recorded"),
      )
      .finally(() => this.recording.delete(written));
    this.recording.add(written);
    return result.kind === "failed" && result.timedOut;
  }

  private endpointGone(endpointId: string): void {
    for (const { delivery } of this.options.slots.drop(endpointId)) {
      this.toRelease.push(delivery.id);
    }
    void import("./send.ts").then(({ closePool }) => closePool(endpointId));
  }
}

async function sendSigned(
  delivery: ClaimedDelivery,
  settings: DelivererSettings,
  signal: AbortSignal,
): Promise<AttemptResult> {
  // The sender (undici, a megabyte of code) is loaded by the first attempt, not by every start.
  const { sendWebhookAttempt } = await import("./send.ts");
  const headers = signatureHeaders({
    id: delivery.id,
    timestampSeconds: Date.now() / 1000,
    body: delivery.body,
    secrets: delivery.secrets,
  });
  return sendWebhookAttempt({
    url: delivery.url,
    // webhook-event names the message's event (the document's x-event type) beside the signed body.
    headers: { ...headers, [EVENT_HEADER]: delivery.event, "user-agent": "plantstore-webhooks/1" },
    body: delivery.body,
    timeoutMs: settings.timeoutMs,
    allowPrivate: settings.allowPrivate,
    signal,
    pool: { key: delivery.endpointId, connections: settings.endpointConcurrency },
  });
}

/** What the log says of an attempt. */
function attemptFields(delivery: ClaimedDelivery, result: AttemptResult, outcome: string) {
  return {
    endpoint: delivery.endpointId,
    delivery: delivery.id,
    attempt: delivery.attempts + 1,
    status: result.kind === "answered" ? result.status : null,
    error: result.kind === "failed" ? result.error : undefined,
    outcome,
    durationMs: result.durationMs,
  };
}
