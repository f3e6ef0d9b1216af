// The server's view of managed tokens over a real store, with the store's calls counted and,
// where a test says so, made to fail.
import { describe, expect, it } from "vitest";
import { issueToken } from "../../src/auth/issue-token.ts";
import { openManagedTokens } from "../../src/auth/managed-tokens.ts";
import { uniqueId } from "../helpers/app.ts";
import { waitUntilAsync } from "../helpers/auth.ts";
import { storeEngines, useTestStore } from "../helpers/stores.ts";
import { spyOn, useViews } from "../helpers/token-store-spy.ts";

describe.each(storeEngines)("managed token view ($name)", (engine) => {
  const db = useTestStore(engine);
  const open = useViews();
  const issue = () => issueToken(db().store.tokens, { name: `n-${uniqueId()}` });

  it("when a token is used many times, then one flush writes its latest use once, and no request writes", async () => {
    const spy = spyOn(db().store.tokens);
    const { token, record } = await issue();
    const view = await open(spy);
    for (let i = 0; i < 50; i++) expect((await view.check(token)).ok).toBe(true);
    expect(spy.lastUsedWrites).toEqual([]);
    const before = new Date();
    await view.flush();
    expect(spy.lastUsedWrites).toHaveLength(1);
    expect([...(spy.lastUsedWrites[0]?.keys() ?? [])]).toEqual([record.id]);
    await view.flush();
    expect(spy.lastUsedWrites).toHaveLength(1);
    const [stored] = await db().store.tokens.findByHashes([record.hash]);
    expect(stored?.lastUsedAt?.getTime()).toBeLessThanOrEqual(before.getTime());
    expect(stored?.lastUsedAt).not.toBeNull();
  });

  it("when the last use cannot be written, then it is kept and written by a later flush", async () => {
    const spy = spyOn(db().store.tokens);
    const { token, record } = await issue();
    const view = await open(spy);
    expect((await view.check(token)).ok).toBe(true);
    spy.failing.recordLastUsed = true;
    await view.flush();
    expect(spy.warnings).toEqual([expect.stringContaining("cannot record last use")]);
    spy.failing.recordLastUsed = false;
    await view.flush();
    const [stored] = await db().store.tokens.findByHashes([record.hash]);
    expect(stored?.lastUsedAt).not.toBeNull();
  });

  it("when the token table cannot be read, then cached tokens keep their last state, a token not cached is unavailable (not unknown), and one warning is logged", async () => {
    const spy = spyOn(db().store.tokens);
    const kept = await issue();
    const revoked = await issue();
    await db().store.tokens.revoke(revoked.record.id, new Date());
    const view = await open(spy);
    expect(await view.check(kept.token)).toMatchObject({ ok: true });
    expect(await view.check(revoked.token)).toMatchObject({ ok: false, reason: "revoked" });
    spy.failing.findByHashes = true;
    const later = await issue();
    for (let i = 0; i < 3; i++) {
      expect(await view.check(later.token)).toMatchObject({ ok: false, kind: "unavailable" });
    }
    expect(await view.check(kept.token)).toMatchObject({ ok: true });
    expect(await view.check(revoked.token)).toMatchObject({ ok: false, reason: "revoked" });
    expect(spy.warnings).toEqual([expect.stringContaining("cannot read the token table")]);
    spy.failing.findByHashes = false;
    expect(await view.check(later.token)).toMatchObject({ ok: true });
    expect(spy.infos.map((line) => line.message)).toContain(
      "managed tokens: the token table is readable again",
    );
  });

  it("when the token table cannot be queried at start-up, then the view does not open", async () => {
    const spy = spyOn(db().store.tokens);
    spy.failing.hasAny = true;
    await expect(openManagedTokens(spy.store, { log: console })).rejects.toThrow(/database away/);
  });

  it("when a token in use is revoked through another connection, then a running view refuses it within seconds, without listing the table", async () => {
    const spy = spyOn(db().store.tokens);
    const { token, record } = await issue();
    const view = await open(spy, { refreshIntervalMs: 250 });
    expect(await view.check(token)).toMatchObject({ ok: true });
    const other = await db().reopen();
    await other.tokens.revoke(record.id, new Date());
    await waitUntilAsync(
      async () => !(await view.check(token)).ok,
      "the view refuses the revoked token",
      3000,
    );
    expect(await view.check(token)).toMatchObject({ ok: false, reason: "revoked" });
    expect(spy.lists).toBe(0);
  });

  it("when a cached token expires, then it is refused as expired without asking the store again", async () => {
    const spy = spyOn(db().store.tokens);
    const { token } = await issueToken(db().store.tokens, {
      name: `n-${uniqueId()}`,
      expiresInMs: 300,
    });
    const view = await open(spy);
    expect(await view.check(token)).toMatchObject({ ok: true });
    await waitUntilAsync(async () => !(await view.check(token)).ok, "the token has expired");
    expect(await view.check(token)).toMatchObject({ ok: false, reason: "expired" });
    expect(spy.lookups).toHaveLength(1);
  });
});
