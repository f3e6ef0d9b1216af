// The running view purges revoked and expired tokens once they are older than the retention
// period, and keeps trying when a purge fails.
import { describe, expect, it } from "vitest";
import { issueToken } from "../../src/auth/issue-token.ts";
import { uniqueId } from "../helpers/app.ts";
import { waitUntilAsync } from "../helpers/auth.ts";
import { storeEngines, useTestStore } from "../helpers/stores.ts";
import { spyOn, useViews } from "../helpers/token-store-spy.ts";

const DAY_MS = 86_400_000;
const daysAgo = (days: number): Date => new Date(Date.now() - days * DAY_MS);

describe.each(storeEngines)("managed token purge ($name)", (engine) => {
  const db = useTestStore(engine);
  const open = useViews();

  /** Tokens revoked 40 days ago, revoked a day ago, and never revoked. */
  const issueThree = async () => {
    const [old, recent, active] = await Promise.all(
      [1, 2, 3].map(() => issueToken(db().store.tokens, { name: `n-${uniqueId()}` })),
    );
    if (old === undefined || recent === undefined || active === undefined) throw new Error("?");
    await db().store.tokens.revoke(old.record.id, daysAgo(40));
    await db().store.tokens.revoke(recent.record.id, daysAgo(1));
    return { old: old.record, recent: recent.record, active: active.record };
  };
  const stored = async (hashes: string[]) =>
    (await db().store.tokens.findByHashes(hashes)).map((t) => t.id).sort();

  it("when a token was revoked longer ago than the retention, then the view purges it, logs how many, and keeps the others", async () => {
    const { old, recent, active } = await issueThree();
    const spy = spyOn(db().store.tokens);
    const view = await open(spy, { retentionMs: 30 * DAY_MS, purgeIntervalMs: 50 });
    const purged = () => spy.infos.find((line) => line.message.includes("purged"));
    await waitUntilAsync(async () => purged() !== undefined, "a purge is logged");
    expect(purged()?.fields).toEqual({ removed: 1 });
    expect(await stored([old.hash, recent.hash, active.hash])).toEqual(
      [recent.id, active.id].sort(),
    );
    await view.close();
  });

  it("when a purge fails, then it logs a warning and the next one purges", async () => {
    const { old, active } = await issueThree();
    const spy = spyOn(db().store.tokens);
    spy.failing.purge = true;
    const view = await open(spy, { retentionMs: 30 * DAY_MS, purgeIntervalMs: 50 });
    await waitUntilAsync(async () => spy.warnings.length > 0, "the purge fails");
    expect(spy.warnings[0]).toContain("cannot purge");
    spy.failing.purge = false;
    await waitUntilAsync(
      async () => (await stored([old.hash, active.hash])).length === 1,
      "the old token is gone",
    );
    await view.close();
  });

  it("when the retention is 0, then nothing is purged", async () => {
    const { old } = await issueThree();
    const spy = spyOn(db().store.tokens);
    const view = await open(spy, { retentionMs: 0, purgeIntervalMs: 50 });
    // A view opened after it on the same interval, keeping everything younger than a year: its
    // second purge comes after the first the other would have made, had it scheduled any.
    const control = spyOn(db().store.tokens);
    const after = await open(control, { retentionMs: 365 * DAY_MS, purgeIntervalMs: 50 });
    await waitUntilAsync(async () => control.purges >= 2, "the other view purges twice");
    await Promise.all([view.close(), after.close()]);
    expect(spy.purges).toBe(0);
    expect(await stored([old.hash])).toEqual([old.id]);
  });
});
