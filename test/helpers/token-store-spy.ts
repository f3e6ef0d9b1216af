// A real TokenStore with its calls counted and, where a test says so, made to fail; and a
// managed token view opened on it, for the test/auth suites.
import { afterAll } from "vitest";
import {
  type ManagedTokens,
  type ManagedTokensOptions,
  openManagedTokens,
} from "../../src/auth/managed-tokens.ts";
import type { TokenStore } from "../../src/store/tokens.ts";

export interface StoreSpy {
  store: TokenStore;
  /** list() calls: the server must never make one. */
  lists: number;
  /** The hashes of each findByHashes() call, in order. */
  lookups: string[][];
  /** The most findByHashes() calls that were under way at once. */
  mostInFlight: number;
  purges: number;
  lastUsedWrites: Map<string, Date>[];
  failing: { findByHashes: boolean; hasAny: boolean; purge: boolean; recordLastUsed: boolean };
  warnings: string[];
  infos: { fields: unknown; message: string }[];
}

const away = () => Promise.reject(new Error("database away"));

export function spyOn(real: TokenStore): StoreSpy {
  let inFlight = 0;
  const spy: StoreSpy = {
    lists: 0,
    lookups: [],
    mostInFlight: 0,
    purges: 0,
    lastUsedWrites: [],
    failing: { findByHashes: false, hasAny: false, purge: false, recordLastUsed: false },
    warnings: [],
    infos: [],
    store: {
      ...real,
      list: () => {
        spy.lists++;
        return real.list();
      },
      findByHashes: async (hashes) => {
        spy.lookups.push([...hashes]);
        if (spy.failing.findByHashes) return away();
        spy.mostInFlight = Math.max(spy.mostInFlight, ++inFlight);
        try {
          return await real.findByHashes(hashes);
        } finally {
          inFlight--;
        }
      },
      hasAny: () => (spy.failing.hasAny ? away() : real.hasAny()),
      purge: (before) => {
        spy.purges++;
        return spy.failing.purge ? away() : real.purge(before);
      },
      recordLastUsed: (uses) => {
        if (spy.failing.recordLastUsed) return away();
        spy.lastUsedWrites.push(new Map(uses));
        return real.recordLastUsed(uses);
      },
    },
  };
  return spy;
}

/** Opens views on spied stores; every one is closed after the suite. */
export function useViews(): (
  spy: StoreSpy,
  options?: Omit<ManagedTokensOptions, "log">,
) => Promise<ManagedTokens> {
  const opened: ManagedTokens[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((view) => view.close()));
  });
  return async (spy, options = {}) => {
    // Timers far apart unless the test says otherwise, so only the test's own calls happen.
    const view = await openManagedTokens(spy.store, {
      log: {
        info: (fields: unknown, message?: string) =>
          void spy.infos.push({ fields, message: message ?? String(fields) }),
        warn: (fields: unknown, message?: string) =>
          void spy.warnings.push(message ?? String(fields)),
      },
      refreshIntervalMs: 60_000,
      flushIntervalMs: 60_000,
      purgeIntervalMs: 3_600_000,
      ...options,
    });
    opened.push(view);
    return view;
  };
}
