// What checking a managed token costs the store: lookups by hash, never the whole table, and
// one lookup in flight however many unknown tokens arrive at once.
import { describe, expect, it } from "vitest";
import { issueToken } from "../../src/auth/issue-token.ts";
import { generateToken } from "../../src/auth/managed-token.ts";
import { uniqueId } from "../helpers/app.ts";
import { storeEngines, useTestStore } from "../helpers/stores.ts";
import { insertTokenRows } from "../helpers/token-rows.ts";
import { spyOn, useViews } from "../helpers/token-store-spy.ts";

describe.each(storeEngines)("managed token lookups ($name)", (engine) => {
  const db = useTestStore(engine);
  const open = useViews();

  it("when the table holds 100,000 tokens, then a known and an unknown token each cost at most one lookup of a few hashes, and the table is never listed", async () => {
    await insertTokenRows(db().url, 100_000);
    const { token } = await issueToken(db().store.tokens, { name: `n-${uniqueId()}` });
    const spy = spyOn(db().store.tokens);
    const view = await open(spy);

    expect(await view.check(token)).toMatchObject({ ok: true });
    expect(spy.lookups).toHaveLength(1);
    const unknown = generateToken();
    expect(await view.check(unknown)).toMatchObject({ ok: false, reason: "unknown" });
    expect(spy.lookups).toHaveLength(2);
    // Both answers are cached: checking again asks the store nothing.
    expect(await view.check(token)).toMatchObject({ ok: true });
    expect(await view.check(unknown)).toMatchObject({ ok: false, reason: "unknown" });
    expect(spy.lookups).toHaveLength(2);
    for (const hashes of spy.lookups) expect(hashes.length).toBeLessThanOrEqual(5);
    expect(spy.lists).toBe(0);
  });

  it("when 1,000 distinct unknown tokens are checked at once, then one lookup at most is in flight, each hash is looked up once, and every one is unknown", async () => {
    const spy = spyOn(db().store.tokens);
    const view = await open(spy);
    const tokens = Array.from({ length: 1000 }, () => generateToken());
    const outcomes = await Promise.all(tokens.map((token) => view.check(token)));

    expect(outcomes.every((outcome) => !outcome.ok && outcome.reason === "unknown")).toBe(true);
    expect(spy.mostInFlight).toBe(1);
    expect(new Set(spy.lookups.flat()).size).toBe(1000);
    expect(spy.lookups.flat()).toHaveLength(1000);
    expect(spy.lists).toBe(0);
  });

  it("when one unknown token is checked many times at once, then it is looked up once", async () => {
    const spy = spyOn(db().store.tokens);
    const view = await open(spy);
    const token = generateToken();
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => view.check(token)));
    expect(outcomes.every((outcome) => !outcome.ok && outcome.reason === "unknown")).toBe(true);
    expect(spy.lookups).toEqual([[expect.any(String)]]);
  });
});
