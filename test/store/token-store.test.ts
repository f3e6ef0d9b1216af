// The behaviour every TokenStore engine must have: one suite, run against each engine.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NewToken, TokenNameTakenError } from "../../src/store/tokens.ts";
import { uniqueId } from "../helpers/app.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";

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
});
