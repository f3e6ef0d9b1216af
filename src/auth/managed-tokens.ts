// Managed tokens as the server sees them. A token is looked up by its hash (through one
// batching queue) the first time it is seen, and the answer, known or unknown, is cached
// (src/auth/cached-tokens.ts). Every second the usable tokens used in the last minute are
// looked up again, so a revocation reaches every instance within about a second. Nothing
// here reads the whole table, so a check costs the same with ten tokens or a million. Uses
// are written in one batch every few seconds; old revoked and expired tokens are purged.
import { timingSafeEqual } from "node:crypto";
import type { TokenRecord, TokenStore } from "../store/tokens.ts";
import { createCachedTokens } from "./cached-tokens.ts";
import { createLastUses } from "./last-uses.ts";
import { hashToken, hasValidChecksum } from "./managed-token.ts";
import { type AuthLog, type AuthOutcome, failure } from "./outcome.ts";
import { startTokenPurge } from "./token-purge.ts";

export interface ManagedTokensOptions {
  log: AuthLog;
  /** How often the cached tokens in use are looked up again. */
  refreshIntervalMs?: number;
  flushIntervalMs?: number;
  /** How long revoked and expired tokens are kept before they are purged; 0 keeps them. */
  retentionMs?: number;
  purgeIntervalMs?: number;
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
const RETENTION_MS = 30 * 86_400_000;
const PURGE_INTERVAL_MS = 3_600_000;

export async function openManagedTokens(
  store: TokenStore,
  options: ManagedTokensOptions,
): Promise<ManagedTokens> {
  const { log } = options;
  // A start-up that cannot query the table at all fails here, not at the first request.
  await store.hasAny();

  const tokens = createCachedTokens(store, log);
  const uses = createLastUses(store, log);
  const purge = startTokenPurge(store, {
    log,
    retentionMs: options.retentionMs ?? RETENTION_MS,
    intervalMs: options.purgeIntervalMs ?? PURGE_INTERVAL_MS,
  });
  const timers = [
    setInterval(() => tokens.revalidate(), options.refreshIntervalMs ?? REFRESH_INTERVAL_MS),
    setInterval(() => void uses.flush(), options.flushIntervalMs ?? FLUSH_INTERVAL_MS),
  ];
  for (const timer of timers) timer.unref();

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
      const record = await tokens.recordFor(hash);
      if (record === undefined) {
        // Not "unknown": the token may well be valid.
        return failure(
          "unavailable",
          "token_store_unavailable",
          "the token could not be checked; retry shortly",
        );
      }
      const now = new Date();
      const outcome = outcomeFor(record, hash, now);
      if (outcome.ok && record !== null) uses.note(record.id, now);
      return outcome;
    },
    flush: () => uses.flush(),
    async close() {
      for (const timer of timers) clearInterval(timer);
      await purge.stop();
      await tokens.settle();
      await uses.flush();
    },
  };
}

function outcomeFor(record: TokenRecord | null, hash: string, now: Date): AuthOutcome {
  // The store found the row by its hash; the final comparison is still constant-time.
  if (
    record === null ||
    !timingSafeEqual(Buffer.from(record.hash, "hex"), Buffer.from(hash, "hex"))
  ) {
    return failure("invalid_token", "unknown", "the bearer token is not valid");
  }
  const identity = { kind: "managed", id: record.id, name: record.name } as const;
  if (record.revokedAt !== null) {
    return failure("invalid_token", "revoked", "the token has been revoked", identity);
  }
  if (record.expiresAt !== null && record.expiresAt <= now) {
    return failure("invalid_token", "expired", "the token has expired", identity);
  }
  return {
    ok: true,
    principal: {
      token: identity,
      scopes: record.scopes ?? undefined,
      limitKey: `managed:${record.id}`,
    },
  };
}
