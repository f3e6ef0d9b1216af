// The server's view of managed tokens over a real store, with the store's calls counted and,
// where a test says so, made to fail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken } from "../../src/auth/issue-token.ts";
import { type ManagedTokens, openManagedTokens } from "../../src/auth/managed-tokens.ts";
import type { TokenStore } from "../../src/store/tokens.ts";
import { uniqueId } from "../helpers/app.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";

interface Spy {
  store: TokenStore;
  lastUsedWrites: Map<string, Date>[];
  failing: { list: boolean; recordLastUsed: boolean };
  warnings: string[];
}

function spyOn(real: TokenStore): Spy {
  const spy: Spy = {
    lastUsedWrites: [],
    failing: { list: false, recordLastUsed: false },
    warnings: [],
    store: {
      ...real,
      list: () => (spy.failing.list ? Promise.reject(new Error("database away")) : real.list()),
      recordLastUsed: (uses) => {
        if (spy.failing.recordLastUsed) return Promise.reject(new Error("database away"));
        spy.lastUsedWrites.push(new Map(uses));
        return real.recordLastUsed(uses);
      },
    },
  };
  return spy;
}

const quietLog = (spy: Spy) => ({
  info: () => undefined,
  warn: (_fields: unknown, message?: string) => void spy.warnings.push(String(message)),
});

describe.each(storeEngines)("managed token view ($name)", (engine) => {
  let db: TestStore;
  const opened: ManagedTokens[] = [];
  beforeAll(async () => {
    db = await engine.create();
  });
  afterAll(async () => {
    await Promise.all(opened.map((view) => view.close()));
    await db.destroy();
  });
  const open = async (spy: Spy) => {
    // Timers far apart, so that only the test's own flush() writes.
    const view = await openManagedTokens(spy.store, {
      log: quietLog(spy),
      refreshIntervalMs: 60_000,
      flushIntervalMs: 60_000,
    });
    opened.push(view);
    return view;
  };

  it("when a token is used many times, then one flush writes its latest use once, and no request writes", async () => {
    const spy = spyOn(db.store.tokens);
    const { token, record } = await issueToken(db.store.tokens, { name: `n-${uniqueId()}` });
    const view = await open(spy);
    for (let i = 0; i < 50; i++) expect((await view.check(token)).ok).toBe(true);
    expect(spy.lastUsedWrites).toEqual([]);
    const before = new Date();
    await view.flush();
    expect(spy.lastUsedWrites).toHaveLength(1);
    expect([...(spy.lastUsedWrites[0]?.keys() ?? [])]).toEqual([record.id]);
    await view.flush();
    expect(spy.lastUsedWrites).toHaveLength(1);
    const stored = (await db.store.tokens.list()).find((t) => t.id === record.id);
    expect(stored?.lastUsedAt?.getTime()).toBeLessThanOrEqual(before.getTime());
    expect(stored?.lastUsedAt).not.toBeNull();
  });

  it("when the last use cannot be written, then it is kept and written by a later flush", async () => {
    const spy = spyOn(db.store.tokens);
    const { token, record } = await issueToken(db.store.tokens, { name: `n-${uniqueId()}` });
    const view = await open(spy);
    expect((await view.check(token)).ok).toBe(true);
    spy.failing.recordLastUsed = true;
    await view.flush();
    expect(spy.warnings).toEqual([expect.stringContaining("cannot record last use")]);
    spy.failing.recordLastUsed = false;
    await view.flush();
    expect(
      (await db.store.tokens.list()).find((t) => t.id === record.id)?.lastUsedAt,
    ).not.toBeNull();
  });

  it("when the token table cannot be read, then the last good view keeps working and a revoked token stays known", async () => {
    const spy = spyOn(db.store.tokens);
    const kept = await issueToken(db.store.tokens, { name: `n-${uniqueId()}` });
    const view = await open(spy);
    spy.failing.list = true;
    // A miss forces a read, which fails: the view stays as it was, with one warning.
    const unknown = await issueToken(db.store.tokens, { name: `n-${uniqueId()}` });
    expect(await view.check(unknown.token)).toMatchObject({ ok: false, reason: "unknown" });
    expect(await view.check(kept.token)).toMatchObject({ ok: true });
    expect(spy.warnings).toEqual([expect.stringContaining("using the last good view")]);
    spy.failing.list = false;
    expect(await view.check(unknown.token)).toMatchObject({ ok: true });
  });
});
