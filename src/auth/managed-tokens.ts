// Managed tokens as the server sees them: an in-memory view of the whole token table, read
// again every second, so a revocation or a new token reaches every instance within about a
// second without a restart. While the table cannot be read, the last good view stays in use.
// Uses are noted in memory and written in one batch every few seconds, and at close.
import { timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyBaseLogger } from "fastify";
import type { TokenRecord, TokenStore } from "../store/tokens.ts";
import { hashToken, hasValidChecksum } from "./managed-token.ts";
import { type AuthOutcome, failure } from "./outcome.ts";

export type AuthLog = Pick<FastifyBaseLogger, "info" | "warn">;

export interface ManagedTokensOptions {
  log: AuthLog;
  refreshIntervalMs?: number;
  flushIntervalMs?: number;
}

export interface ManagedTokens {
  check(token: string): Promise<AuthOutcome>;
  /** Writes the uses noted so far. */
  flush(): Promise<void>;
  /** Stops the timers and flushes. */
  close(): Promise<void>;
}

const REFRESH_INTERVAL_MS = 1000;
const FLUSH_INTERVAL_MS = 5000;
// A token not in the view may have been created a moment ago: read the table again first
// (reads for misses start at most this often), and wait at most this long for it.
const MISS_REFRESH_MIN_GAP_MS = 250;
const MISS_REFRESH_WAIT_MS = 1000;

export async function openManagedTokens(
  store: TokenStore,
  options: ManagedTokensOptions,
): Promise<ManagedTokens> {
  const { log } = options;
  let view = new Map<string, TokenRecord>();
  let inFlight: Promise<void> | undefined;
  let lastStart = 0;
  let failing = false;

  const refresh = (): Promise<void> => {
    if (inFlight !== undefined) return inFlight;
    lastStart = Date.now();
    inFlight = store
      .list()
      .then((rows) => {
        view = new Map(rows.map((row) => [row.hash, row]));
        if (failing) log.info("managed tokens: the token table is readable again");
        failing = false;
      })
      .catch((error: unknown) => {
        if (!failing) {
          log.warn(
            { reason: String(error) },
            "managed tokens: cannot read the token table; using the last good view until it can",
          );
        }
        failing = true;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  // The first view must be complete: a start-up that cannot read it fails.
  view = new Map((await store.list()).map((row) => [row.hash, row]));

  let uses = new Map<string, Date>();
  const flush = async (): Promise<void> => {
    if (uses.size === 0) return;
    const batch = uses;
    uses = new Map();
    try {
      await store.recordLastUsed(batch);
    } catch (error) {
      // Keep them for the next flush, unless a newer use has been noted meanwhile.
      for (const [id, at] of batch) if (!uses.has(id)) uses.set(id, at);
      log.warn({ reason: String(error) }, "managed tokens: cannot record last use; will retry");
    }
  };

  const timers = [
    setInterval(() => void refresh(), options.refreshIntervalMs ?? REFRESH_INTERVAL_MS),
    setInterval(() => void flush(), options.flushIntervalMs ?? FLUSH_INTERVAL_MS),
  ];
  for (const timer of timers) timer.unref();

  const lookup = (hash: string): TokenRecord | undefined => {
    const found = view.get(hash);
    // The map is keyed by the digest of a random token, so finding it leaks nothing usable;
    // the final comparison is still constant-time.
    return found !== undefined &&
      timingSafeEqual(Buffer.from(found.hash, "hex"), Buffer.from(hash, "hex"))
      ? found
      : undefined;
  };

  /** Resolves once a read that began after `since` is done (or, at worst, after a bound). */
  const viewAfter = async (since: number): Promise<void> => {
    for (;;) {
      if (inFlight !== undefined && lastStart > since) return inFlight;
      const gap = lastStart + MISS_REFRESH_MIN_GAP_MS - Date.now();
      if (inFlight !== undefined) await inFlight;
      else if (gap > 0) await sleep(gap, undefined, { ref: false });
      else return refresh();
    }
  };
  const refreshOnMiss = (since: number): Promise<void> =>
    Promise.race([viewAfter(since), sleep(MISS_REFRESH_WAIT_MS, undefined, { ref: false })]);

  return {
    async check(token) {
      if (!hasValidChecksum(token)) {
        return failure(
          "invalid_token",
          "bad_checksum",
          "the token's checksum does not match: it was mistyped or cut short",
        );
      }
      const hash = hashToken(token);
      let record = lookup(hash);
      if (record === undefined) {
        await refreshOnMiss(Date.now());
        record = lookup(hash);
      }
      if (record === undefined) {
        return failure("invalid_token", "unknown", "the bearer token is not valid");
      }
      const identity = { kind: "managed", id: record.id, name: record.name } as const;
      const now = new Date();
      if (record.revokedAt !== null) {
        return failure("invalid_token", "revoked", "the token has been revoked", identity);
      }
      if (record.expiresAt !== null && record.expiresAt <= now) {
        return failure("invalid_token", "expired", "the token has expired", identity);
      }
      uses.set(record.id, now);
      return { ok: true, principal: { token: identity, scopes: record.scopes ?? undefined } };
    },
    flush,
    async close() {
      for (const timer of timers) clearInterval(timer);
      await inFlight;
      await flush();
    },
  };
}
