// A TokenStore in memory for the unit tests of src/auth: each method a vi.fn over a map of rows
// by hash, so a test can answer one call itself (held, failed) and read every call made; and a
// log that keeps its lines.
import { vi } from "vitest";
import type { AuthLog } from "../../src/auth/outcome.ts";
import type { NewToken, RevokeResult, TokenRecord, TokenStore } from "../../src/store/tokens.ts";

export function storeDouble(rows: readonly TokenRecord[] = []) {
  /** What lookups find; a test changes a row here as another instance would in the table. */
  const byHash = new Map(rows.map((row) => [row.hash, row]));
  const store = {
    create: vi.fn(
      async (token: NewToken): Promise<TokenRecord> => ({
        ...token,
        lastUsedAt: null,
        revokedAt: null,
      }),
    ),
    list: vi.fn(async () => [...byHash.values()]),
    findByHashes: vi.fn(async (hashes: readonly string[]) =>
      hashes.flatMap((hash) => byHash.get(hash) ?? []),
    ),
    hasAny: vi.fn(async () => byHash.size > 0),
    hasUsable: vi.fn(async (_now: Date) => byHash.size > 0),
    purge: vi.fn(async (_before: Date) => 0),
    revoke: vi.fn(async (): Promise<RevokeResult> => ({ kind: "not-found" })),
    recordLastUsed: vi.fn(async (_uses: ReadonlyMap<string, Date>) => undefined),
  } satisfies TokenStore;
  return { store, rows: byHash };
}

/** A row for `hash` (or a token's hash): usable, full access, never used. */
export const tokenRow = (hash: string, changes: Partial<TokenRecord> = {}): TokenRecord => ({
  id: `tok_${hash.slice(0, 11)}`,
  name: `name-${hash.slice(0, 8)}`,
  hash,
  scopes: null,
  createdAt: new Date(0),
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
  ...changes,
});

/** A promise and the functions that settle it, for a call the test answers itself. */
export function deferred<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** An AuthLog that keeps each line's level and arguments. */
export function recordingLog(): {
  log: AuthLog;
  lines: { level: "info" | "warn"; args: unknown[] }[];
} {
  const lines: { level: "info" | "warn"; args: unknown[] }[] = [];
  return {
    lines,
    log: {
      info: (...args: unknown[]) => void lines.push({ level: "info", args }),
      warn: (...args: unknown[]) => void lines.push({ level: "warn", args }),
    },
  };
}

export const quietLog: AuthLog = { info: () => undefined, warn: () => undefined };

/**
 * One turn of the event loop (the real setImmediate: tests here fake only the timers they
 * move): every promise reaction already due has run by then, however many there are.
 */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
