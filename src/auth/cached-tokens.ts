// Managed token rows as the server knows them: cached by hash, looked up through one queue on
// a miss, and looked up again on demand (revalidate) while in use. While the store fails,
// cached entries keep their last known state, and a miss cannot be answered.
import type { TokenRecord, TokenStore } from "../store/tokens.ts";
import type { AuthLog } from "./outcome.ts";
import { createTokenCache } from "./token-cache.ts";
import { createTokenLookup } from "./token-lookup.ts";

export interface CachedTokens {
  /** The row for the hash, null if there is none, undefined if the store cannot tell in time. */
  recordFor(hash: string): Promise<TokenRecord | null | undefined>;
  /** Drops the entries unused for a while and looks the others up again (one run at a time). */
  revalidate(): void;
  /** Waits for the lookups under way. */
  settle(): Promise<void>;
}

const MAX_CACHED = 10_000;
// A cached token unused this long is dropped rather than looked up again.
const IDLE_MS = 60_000;
// A token not in the cache waits at most this long for the store, then gets 503.
const MISS_WAIT_MS = 2000;

export function createCachedTokens(store: TokenStore, log: AuthLog): CachedTokens {
  const cache = createTokenCache(MAX_CACHED);
  const lookup = createTokenLookup(store);
  const outage = outageLog(log);
  const find = (hash: string): Promise<TokenRecord | null> =>
    lookup.find(hash).then(
      (record) => {
        outage.ended();
        cache.remember(hash, record);
        return record;
      },
      (error: unknown) => {
        outage.began(error);
        throw error;
      },
    );
  let revalidating: Promise<unknown> | undefined;

  return {
    recordFor(hash) {
      const cached = cache.use(hash);
      if (cached !== undefined) return Promise.resolve(cached);
      return withinMs(find(hash), MISS_WAIT_MS).catch(() => undefined);
    },
    revalidate() {
      if (revalidating !== undefined) return;
      const due = cache.sweep(Date.now() - IDLE_MS);
      revalidating = Promise.allSettled(due.map(find)).finally(() => {
        revalidating = undefined;
      });
    },
    async settle() {
      await revalidating;
      await lookup.drain();
    },
  };
}

/** One warn line when the table stops answering, one info line when it answers again. */
function outageLog(log: AuthLog): { began(error: unknown): void; ended(): void } {
  let failing = false;
  return {
    began(error) {
      if (!failing) {
        log.warn(
          { reason: String(error) },
          "managed tokens: cannot read the token table; using the cached tokens until it can",
        );
      }
      failing = true;
    },
    ended() {
      if (failing) log.info("managed tokens: the token table is readable again");
      failing = false;
    },
  };
}

/** The promise's value, or undefined if it has not settled within `ms`. */
async function withinMs<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
