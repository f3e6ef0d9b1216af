// The behaviour every TokenStore engine must have: one suite, run against each engine.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NewToken, TokenNameTakenError } from "../../src/store/tokens.ts";
import { uniqueId } from "../helpers/app.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";
import { insertTokenRows } from "../helpers/token-rows.ts";

const DAY_MS = 86_400_000;
const daysAgo = (days: number): Date => new Date(Date.now() - days * DAY_MS);

/** A token row with a unique id, name and hash; times are whole milliseconds. */
function newToken(overrides: Partial<NewToken> = {}): NewToken {
  const n = uniqueId();
  return {
    id: `tok_${n}`,
    name: `token-${n}`,
    hash: randomBytes(32).toString("hex"),
    scopes: null,
    createdAt: new Date(Math.floor(Date.now())),
    expiresAt: null,
    ...overrides,
  };
}

describe.each(storeEngines)("TokenStore contract: $name", (engine) => {
  let db: TestStore;
  beforeAll(async () => {
    db = await engine.create();
  });
  afterAll(async () => {
    await db.destroy();
  });
  const find = async (id: string) => (await db.store.tokens.list()).find((t) => t.id === id);
  /** A database of its own, for what counts every row; removed when `use` is done. */
  const withEmptyDatabase = async (use: (fresh: TestStore) => Promise<void>) => {
    const fresh = await engine.create();
    try {
      await use(fresh);
    } finally {
      await fresh.destroy();
    }
  };

  it("when a token is created, then list shows it with every field and no use or revocation", async () => {
    const token = newToken({
      scopes: ["plants:write", "plants:read"],
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    expect(await db.store.tokens.create(token)).toEqual({
      ...token,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(await find(token.id)).toEqual({ ...token, lastUsedAt: null, revokedAt: null });
  });

  it("when a token carries no scopes, then it is listed with scopes null (no scope claim)", async () => {
    const token = newToken();
    await db.store.tokens.create(token);
    expect((await find(token.id))?.scopes).toBeNull();
  });

  it("when a name is taken by an unrevoked token, then create refuses it and stores nothing", async () => {
    const first = newToken();
    await db.store.tokens.create(first);
    const second = newToken({ name: first.name });
    await expect(db.store.tokens.create(second)).rejects.toBeInstanceOf(TokenNameTakenError);
    expect(await find(second.id)).toBeUndefined();
  });

  it("when the token holding a name is revoked, then the name can be used again", async () => {
    const first = newToken();
    await db.store.tokens.create(first);
    await db.store.tokens.revoke(first.id, new Date());
    const second = newToken({ name: first.name });
    await db.store.tokens.create(second);
    expect((await find(second.id))?.name).toBe(first.name);
  });

  it("when a token is revoked by id, then it is revoked at that time and another connection sees it", async () => {
    const token = newToken();
    await db.store.tokens.create(token);
    const at = new Date(Date.now() + 5);
    expect(await db.store.tokens.revoke(token.id, at)).toEqual({
      kind: "revoked",
      token: { ...token, lastUsedAt: null, revokedAt: at },
    });
    const other = await db.reopen();
    expect((await other.tokens.list()).find((t) => t.id === token.id)?.revokedAt).toEqual(at);
  });

  it("when a token is revoked by name, then the unrevoked one of that name is revoked", async () => {
    const old = newToken();
    await db.store.tokens.create(old);
    await db.store.tokens.revoke(old.id, new Date());
    const current = newToken({ name: old.name });
    await db.store.tokens.create(current);
    const result = await db.store.tokens.revoke(old.name, new Date());
    expect(result).toMatchObject({ kind: "revoked", token: { id: current.id } });
    expect((await find(current.id))?.revokedAt).toEqual(expect.any(Date));
  });

  it("when a revoked token is revoked again, then it says so and keeps the first time", async () => {
    const token = newToken();
    await db.store.tokens.create(token);
    const first = new Date(Date.now() - 1000);
    await db.store.tokens.revoke(token.id, first);
    expect(await db.store.tokens.revoke(token.id, new Date())).toMatchObject({
      kind: "already-revoked",
      token: { id: token.id, revokedAt: first },
    });
  });

  it("when nothing has the id or name, then revoke finds nothing", async () => {
    expect(await db.store.tokens.revoke(`nothing-${uniqueId()}`, new Date())).toEqual({
      kind: "not-found",
    });
  });

  it("when uses are recorded, then last used moves forward and never back", async () => {
    const a = newToken();
    const b = newToken();
    await db.store.tokens.create(a);
    await db.store.tokens.create(b);
    const t1 = new Date(Date.now() - 60_000);
    const t2 = new Date(Date.now() - 30_000);
    await db.store.tokens.recordLastUsed(
      new Map([
        [a.id, t2],
        [b.id, t1],
        [`tok_unknown_${uniqueId()}`, t2],
      ]),
    );
    await db.store.tokens.recordLastUsed(new Map([[a.id, t1]]));
    expect((await find(a.id))?.lastUsedAt).toEqual(t2);
    expect((await find(b.id))?.lastUsedAt).toEqual(t1);
  });

  it("when uses are recorded by two connections at once, then the latest time wins", async () => {
    const token = newToken();
    await db.store.tokens.create(token);
    const other = await db.reopen();
    const times = Array.from({ length: 10 }, (_, i) => new Date(Date.now() - 10_000 + i * 100));
    await Promise.all(
      times.map((at, i) =>
        (i % 2 === 0 ? db.store : other).tokens.recordLastUsed(new Map([[token.id, at]])),
      ),
    );
    expect((await find(token.id))?.lastUsedAt).toEqual(times.at(-1));
  });

  it("when tokens are looked up by hash, then the known ones come back with every field and unknown hashes are left out", async () => {
    const a = newToken({ scopes: ["plants:read"], expiresAt: new Date(Date.now() + DAY_MS) });
    const b = newToken();
    await db.store.tokens.create(a);
    await db.store.tokens.create(b);
    await db.store.tokens.revoke(b.id, new Date(Math.floor(Date.now())));
    const unknown = randomBytes(32).toString("hex");
    const found = await db.store.tokens.findByHashes([unknown, b.hash, a.hash]);
    expect(found.map((t) => t.id).sort()).toEqual([a.id, b.id].sort());
    expect(found.find((t) => t.id === a.id)).toEqual({ ...a, lastUsedAt: null, revokedAt: null });
    expect(found.find((t) => t.id === b.id)?.revokedAt).toEqual(expect.any(Date));
    expect(await db.store.tokens.findByHashes([])).toEqual([]);
  });

  it("when more hashes are asked for than one statement takes, then every known one is found", async () => {
    const tokens = [newToken(), newToken(), newToken()];
    for (const token of tokens) await db.store.tokens.create(token);
    const hashes = Array.from({ length: 1200 }, () => randomBytes(32).toString("hex"));
    hashes[0] = tokens[0]?.hash ?? "";
    hashes[600] = tokens[1]?.hash ?? "";
    hashes[1199] = tokens[2]?.hash ?? "";
    const found = await db.store.tokens.findByHashes(hashes);
    expect(found.map((t) => t.id).sort()).toEqual(tokens.map((t) => t.id).sort());
  });

  it("when the table is empty, then it has no token and no usable one; when one is created, then it has both", async () => {
    await withEmptyDatabase(async ({ store }) => {
      expect(await store.tokens.hasAny()).toBe(false);
      expect(await store.tokens.hasUsable(new Date())).toBe(false);
      await store.tokens.create(newToken());
      expect(await store.tokens.hasAny()).toBe(true);
      expect(await store.tokens.hasUsable(new Date())).toBe(true);
    });
  });

  it("when every token is revoked or expired, then it has tokens but none usable, judged at the time given", async () => {
    await withEmptyDatabase(async ({ store }) => {
      const revoked = newToken();
      await store.tokens.create(revoked);
      await store.tokens.revoke(revoked.id, new Date());
      const expiresAt = new Date(Date.now() + 60_000);
      await store.tokens.create(newToken({ expiresAt }));
      expect(await store.tokens.hasAny()).toBe(true);
      expect(await store.tokens.hasUsable(new Date())).toBe(true);
      expect(await store.tokens.hasUsable(expiresAt)).toBe(false);
    });
  });

  it("when purging before a time, then tokens revoked or expired before it are deleted and counted, and the rest are kept", async () => {
    await withEmptyDatabase(async ({ store }) => {
      const oldRevoked = newToken({ createdAt: daysAgo(50) });
      const oldExpired = newToken({ createdAt: daysAgo(50), expiresAt: daysAgo(40) });
      const newRevoked = newToken();
      const newExpired = newToken({ createdAt: daysAgo(50), expiresAt: daysAgo(1) });
      const active = newToken({ expiresAt: new Date(Date.now() + DAY_MS) });
      const forever = newToken();
      for (const token of [oldRevoked, oldExpired, newRevoked, newExpired, active, forever]) {
        await store.tokens.create(token);
      }
      await store.tokens.revoke(oldRevoked.id, daysAgo(40));
      await store.tokens.revoke(newRevoked.id, daysAgo(1));
      expect(await store.tokens.purge(daysAgo(30))).toBe(2);
      const left = (await store.tokens.list()).map((t) => t.id).sort();
      expect(left).toEqual([newRevoked.id, newExpired.id, active.id, forever.id].sort());
      expect(await store.tokens.purge(daysAgo(30))).toBe(0);
    });
  });

  it("when many thousand old revoked tokens lie among others, then one purge removes them all and keeps the others", async () => {
    await withEmptyDatabase(async (fresh) => {
      await insertTokenRows(fresh.url, 12_000);
      await insertTokenRows(fresh.url, 25_000, { revokedAt: daysAgo(40) });
      const kept = newToken();
      await fresh.store.tokens.create(kept);
      expect(await fresh.store.tokens.purge(daysAgo(30))).toBe(25_000);
      expect(await fresh.store.tokens.hasUsable(new Date())).toBe(true);
      expect(await fresh.store.tokens.findByHashes([kept.hash])).toHaveLength(1);
    });
  });
});
