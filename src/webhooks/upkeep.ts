// What a delivering process does beside sending: every 10 s it reads the backlog for the
// metrics (a bounded read), and every hour it purges what the retention setting lets go.
import type { WebhookStore } from "../store/webhooks.ts";
import type { DelivererMetrics } from "./deliverer-metrics.ts";

const BACKLOG_EVERY_MS = 10_000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
const PURGE_BATCH = 1000;

export interface Upkeep {
  stop(): void;
}

export function startUpkeep(options: {
  store: WebhookStore;
  metrics: DelivererMetrics;
  retentionMs: number;
  warn: (fields: object, message: string) => void;
}): Upkeep {
  const { store, metrics } = options;
  let stopping = false;

  async function refreshBacklog(): Promise<void> {
    const { pending, oldestCreatedAt } = await store.backlog();
    const age = oldestCreatedAt === null ? 0 : (Date.now() - oldestCreatedAt.getTime()) / 1000;
    metrics.backlog(pending, Math.max(0, age));
  }

  async function purge(): Promise<void> {
    const before = new Date(Date.now() - options.retentionMs);
    // Bounded batches, each its own short write, until one comes back short.
    while (!stopping && (await store.purge(before, PURGE_BATCH)) === PURGE_BATCH) {}
  }

  const quietly = (work: () => Promise<void>, what: string) => () =>
    void work().catch((error: unknown) => options.warn({ err: error }, what));
  const backlog = quietly(refreshBacklog, "webhook backlog not read");
  const purgeQuietly = quietly(purge, "webhook deliveries not purged");
  const timers = [
    setInterval(backlog, BACKLOG_EVERY_MS),
    setInterval(purgeQuietly, PURGE_EVERY_MS),
  ];
  for (const timer of timers) timer.unref();
  backlog();
  purgeQuietly();
  return {
    stop() {
      stopping = true;
      for (const timer of timers) clearInterval(timer);
    },
  };
}
