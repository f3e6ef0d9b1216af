// Deletes managed tokens revoked or expired longer ago than the retention period, once soon
// after start and then on an interval, so the table does not grow with every token ever made.
import type { TokenStore } from "../store/tokens.ts";
import type { AuthLog } from "./outcome.ts";

export interface TokenPurgeOptions {
  log: AuthLog;
  /** How long a revoked or expired token is kept (and listed); 0 keeps it for ever. */
  retentionMs: number;
  intervalMs: number;
}

export interface TokenPurge {
  /** Cancels the next purge and waits for one under way. */
  stop(): Promise<void>;
}

// The first purge waits this long (or the interval, if shorter): not during start-up.
const FIRST_PURGE_DELAY_MS = 5000;

export function startTokenPurge(store: TokenStore, options: TokenPurgeOptions): TokenPurge {
  const { log, retentionMs, intervalMs } = options;
  if (retentionMs <= 0) return { stop: async () => undefined };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const purgeOnce = async (): Promise<void> => {
    try {
      const removed = await store.purge(new Date(Date.now() - retentionMs));
      if (removed > 0) {
        log.info({ removed }, "managed tokens: purged tokens revoked or expired past retention");
      }
    } catch (error) {
      log.warn({ reason: String(error) }, "managed tokens: cannot purge old tokens; will retry");
    }
  };
  // A timeout chain rather than an interval: a slow purge never overlaps the next.
  const schedule = (delayMs: number): void => {
    timer = setTimeout(() => {
      running = purgeOnce().finally(() => {
        running = undefined;
        if (!stopped) schedule(intervalMs);
      });
    }, delayMs);
    timer.unref();
  };
  schedule(Math.min(FIRST_PURGE_DELAY_MS, intervalMs));

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
