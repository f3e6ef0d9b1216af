// The purge of old managed tokens (src/auth/token-purge.ts) on a store double and a fake clock:
// when purges come, what they log, and that none comes after stop.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startTokenPurge, type TokenPurge } from "../../src/auth/token-purge.ts";
import { deferred, recordingLog, storeDouble, turn } from "../helpers/token-store-double.ts";

const START = 10_000_000;
const RETENTION_MS = 1000;

let purge: TokenPurge | undefined;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  vi.setSystemTime(START);
});
afterEach(async () => {
  await purge?.stop();
  purge = undefined;
  vi.useRealTimers();
});

describe("purging old managed tokens", () => {
  it.each([
    [60_000, 5000],
    [1000, 1000],
  ])(
    "when the interval is %i ms, then the first purge comes after %i ms (5 s or the interval, if shorter) and the next an interval later, each removing what is past the retention",
    async (intervalMs, firstMs) => {
      const { store } = storeDouble();
      purge = startTokenPurge(store, {
        log: recordingLog().log,
        retentionMs: RETENTION_MS,
        intervalMs,
      });
      await vi.advanceTimersByTimeAsync(firstMs - 1);
      expect(store.purge).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(store.purge.mock.calls).toEqual([[new Date(START + firstMs - RETENTION_MS)]]);
      await vi.advanceTimersByTimeAsync(intervalMs - 1);
      expect(store.purge).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(store.purge).toHaveBeenCalledTimes(2);
    },
  );

  it("when a purge removes nothing, then nothing is logged; when it removes some, then how many", async () => {
    const { store } = storeDouble();
    store.purge.mockResolvedValueOnce(0).mockResolvedValueOnce(3);
    const { log, lines } = recordingLog();
    purge = startTokenPurge(store, { log, retentionMs: RETENTION_MS, intervalMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.purge).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(lines).toEqual([
      {
        level: "info",
        args: [{ removed: 3 }, "managed tokens: purged tokens revoked or expired past retention"],
      },
    ]);
  });

  it("when a purge fails, then a warning with the reason is logged and the next purge still comes", async () => {
    const { store } = storeDouble();
    store.purge.mockRejectedValueOnce(new Error("database away"));
    const { log, lines } = recordingLog();
    purge = startTokenPurge(store, { log, retentionMs: RETENTION_MS, intervalMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(lines).toEqual([
      {
        level: "warn",
        args: [
          { reason: "Error: database away" },
          "managed tokens: cannot purge old tokens; will retry",
        ],
      },
    ]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.purge).toHaveBeenCalledTimes(2);
  });

  it("when stopped during a purge, then stop waits for it, and no purge comes after", async () => {
    const { store } = storeDouble();
    const removed = deferred<number>();
    store.purge.mockImplementationOnce(() => removed.promise);
    const running = startTokenPurge(store, {
      log: recordingLog().log,
      retentionMs: RETENTION_MS,
      intervalMs: 1000,
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.purge).toHaveBeenCalledTimes(1);

    let stopped = false;
    const stopping = running.stop().then(() => {
      stopped = true;
    });
    await turn();
    expect(stopped).toBe(false);
    removed.resolve(0);
    await stopping;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(store.purge).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
