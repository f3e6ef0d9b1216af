import { afterEach, describe, expect, it, vi } from "vitest";
import { createTokenCache } from "../../src/auth/token-cache.ts";
import type { TokenRecord } from "../../src/store/tokens.ts";

const record = (hash: string, changes: Partial<TokenRecord> = {}): TokenRecord => ({
  id: `tok_${hash}`,
  name: hash,
  hash,
  scopes: null,
  createdAt: new Date(),
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
  ...changes,
});

describe("managed token cache", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("when more tokens than it holds are remembered, then the least recently used are dropped", () => {
    const cache = createTokenCache(3);
    for (const hash of ["a", "b", "c"]) cache.remember(hash, record(hash));
    cache.use("a");
    cache.remember("d", record("d"));
    expect(cache.use("b")).toBeUndefined();
    expect(["a", "c", "d"].map((hash) => cache.use(hash)?.hash)).toEqual(["a", "c", "d"]);
  });

  it("when a flood of unknown tokens is remembered, then the known ones stay", () => {
    const cache = createTokenCache(3);
    cache.remember("known", record("known"));
    for (let i = 0; i < 100; i++) cache.remember(`unknown-${i}`, null);
    expect(cache.use("known")?.hash).toBe("known");
    expect(cache.use("unknown-99")).toBeNull();
    expect(cache.use("unknown-0")).toBeUndefined();
  });

  it("when swept, then idle entries are dropped and only the usable tokens in use are due again", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
    const cache = createTokenCache(10);
    cache.remember("idle", record("idle"));
    cache.remember("idle-unknown", null);
    vi.setSystemTime(2_000_000);
    const past = new Date(1_500_000);
    for (const [hash, changes] of [
      ["used", {}],
      ["revoked", { revokedAt: past }],
      ["expired", { expiresAt: past }],
    ] as const) {
      cache.remember(hash, record(hash, changes));
    }
    cache.remember("used-unknown", null);
    expect(cache.sweep(1_500_000)).toEqual(["used"]);
    expect(cache.use("idle")).toBeUndefined();
    expect(cache.use("idle-unknown")).toBeUndefined();
    expect(cache.use("revoked")?.revokedAt).toEqual(past);
    expect(cache.use("used-unknown")).toBeNull();
  });

  it("when a known token is found gone, then it is cached as unknown", () => {
    const cache = createTokenCache(10);
    cache.remember("a", record("a"));
    cache.remember("a", null);
    expect(cache.use("a")).toBeNull();
    expect(cache.sweep(0)).toEqual([]);
  });

  it("when swept, then a token expiring later is due again, one expiring at that instant is not, and one used at the idle bound is kept", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
    const cache = createTokenCache(10);
    cache.remember("at-bound", record("at-bound"));
    vi.setSystemTime(2_000_000);
    cache.remember("expires-later", record("expires-later", { expiresAt: new Date(2_000_001) }));
    cache.remember("expires-now", record("expires-now", { expiresAt: new Date(2_000_000) }));
    expect(cache.sweep(1_000_000).sort()).toEqual(["at-bound", "expires-later"]);
    expect(cache.use("at-bound")?.hash).toBe("at-bound");
  });

  it("when a cached token's row is remembered again, then the cache answers the new row and the entry keeps its last use", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
    const cache = createTokenCache(10);
    cache.remember("a", record("a"));
    vi.setSystemTime(3_000_000);
    const revokedAt = new Date(2_500_000);
    cache.remember("a", record("a", { revokedAt }));
    // Last used at 1,000,000, not when the row came again: idle since 2,000,000.
    expect(cache.sweep(2_000_000)).toEqual([]);
    expect(cache.use("a")).toBeUndefined();

    cache.remember("b", record("b"));
    cache.remember("b", record("b", { revokedAt }));
    expect(cache.use("b")?.revokedAt).toEqual(revokedAt);
  });
});
