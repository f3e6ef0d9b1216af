// The webhook delivery loop, one per delivering process. It polls the store with a read, and
// when something is due claims at most as many deliveries as it has free slots (overall, and
// per endpoint, so a slow endpoint holds only its own slots), sends each, and records how it
// went. The backlog stays in the store: memory is bounded by the slots. Stopping aborts the
// attempts under way and gives their claims back, so another instance may send them at once.
// Its parts: the slots (who may send next), the dispatch (sends), the claim loop, the upkeep.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Registry } from "prom-client";
import type { WebhookStore } from "../store/webhooks.ts";
import { startClaimLoop } from "./claim-loop.ts";
import { createDelivererMetrics } from "./deliverer-metrics.ts";
import { Dispatch } from "./dispatch.ts";
import { Slots } from "./slots.ts";
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

export interface DelivererLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface DelivererOptions {
  store: WebhookStore;
  settings: DelivererSettings;
  log: DelivererLog;
  registry: Registry;
  /** How often an idle deliverer looks for due deliveries. */
  pollMs?: number;
}

export interface Deliverer {
  /** Aborts attempts under way, gives their claims back, and stops polling. */
  stop(): Promise<void>;
}

const IDLE_POLL_MS = 250;

export function startDeliverer(options: DelivererOptions): Deliverer {
  const { store, settings, log } = options;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const metrics = createDelivererMetrics(options.registry);
  const slots = new Slots(settings.concurrency, settings.endpointConcurrency);
  const warn = (fields: object, message: string) => log.warn(fields, message);
  const dispatch = new Dispatch({
    store,
    settings,
    log,
    metrics,
    owner,
    slots,
    // A slot frees only once an attempt has been sent, so after the claim loop has started.
    slotFreed: () => claimLoop.slotFreed(),
  });
  const upkeep = startUpkeep({ store, metrics, retentionMs: settings.retentionMs, warn });
  const pollMs = options.pollMs ?? IDLE_POLL_MS;
  const claimLoop = startClaimLoop({ store, settings, warn, owner, slots, dispatch, pollMs });

  return {
    async stop() {
      dispatch.stopStarting();
      upkeep.stop();
      await claimLoop.stop();
      await store.release(owner, await dispatch.abortAll());
    },
  };
}
