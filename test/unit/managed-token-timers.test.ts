// The running view of managed tokens (src/auth/managed-tokens.ts) on its own timers, with a
// store double and a fake clock: a revocation seen and a last use written without any call
// from the test.
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateToken, hashToken } from "../../src/auth/managed-token.ts";
import { openManagedTokens } from "../../src/auth/managed-tokens.ts";
import { quietLog, storeDouble, tokenRow } from "../helpers/token-store-double.ts";

const START = 1_000_000;

afterEach(() => {
  vi.useRealTimers();
});

/** A view on a store double holding one usable token, with the purge off. */
async function viewOfOne(intervals: { refreshIntervalMs?: number; flushIntervalMs?: number }) {
  const token = generateToken();
  const row = tokenRow(hashToken(token));
  const { store, rows } = storeDouble([row]);
  const view = await openManagedTokens(store, { log: quietLog, retentionMs: 0, ...intervals });
  return { token, row, store, rows, view };
}

describe("managed tokens on their timers", () => {
  it("when a token in use is revoked in the table, then the view refuses it once the refresh interval given has passed", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const { token, row, store, rows, view } = await viewOfOne({
      refreshIntervalMs: 250,
      flushIntervalMs: 60_000,
    });
    expect(await view.check(token)).toMatchObject({ ok: true });
    rows.set(row.hash, { ...row, revokedAt: new Date(START) });

    await vi.advanceTimersByTimeAsync(250);
    // close() waits for the lookups under way, so the refresh started at 250 ms has answered.
    await view.close();
    expect(store.findByHashes).toHaveBeenCalledTimes(2);
    expect(await view.check(token)).toMatchObject({ ok: false, reason: "revoked" });
  });

  it.each([
    [{ flushIntervalMs: 400, refreshIntervalMs: 60_000 }, 400],
    [{}, 5000],
  ])(
    "when the intervals are %j, then a last use is written after %i ms, without a flush",
    async (intervals, flushMs) => {
      vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
      vi.setSystemTime(START);
      const { token, row, store, view } = await viewOfOne(intervals);
      try {
        expect(await view.check(token)).toMatchObject({ ok: true });
        await vi.advanceTimersByTimeAsync(flushMs - 1);
        expect(store.recordLastUsed).not.toHaveBeenCalled();
        await vi.advanceTimersByTimeAsync(1);
        expect(store.recordLastUsed.mock.calls).toEqual([[new Map([[row.id, new Date(START)]])]]);
      } finally {
        await view.close();
      }
    },
  );
});
