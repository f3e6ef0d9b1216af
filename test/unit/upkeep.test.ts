// What a delivering process does beside sending (src/webhooks/upkeep.ts), on a store double and
// fake timers: the backlog read for the metrics at start and every 10 s, the purge of what the
// retention lets go at start and every hour in batches until one comes back short, a warning
// when either fails, and nothing once stopped.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { WebhookStore } from "../../src/store/webhooks.ts";
import type { DelivererMetrics } from "../../src/webhooks/deliverer-metrics.ts";
import { startUpkeep, type Upkeep } from "../../src/webhooks/upkeep.ts";

const NOW = 1_000_000_000;
const RETENTION_MS = 86_400_000;

function doubles(purged: number[] = [0]) {
  const store = {
    backlog: vi.fn(async () => ({ pending: 7, oldestCreatedAt: new Date(NOW - 30_000) })),
    purge: vi.fn(async () => purged.shift() ?? 0),
  };
  const metrics = { backlog: vi.fn() };
  const warn = vi.fn();
  const start = () =>
    startUpkeep({
      store: store as unknown as WebhookStore,
      metrics: metrics as unknown as DelivererMetrics,
      retentionMs: RETENTION_MS,
      warn,
    });
  return { store, metrics, warn, start };
}

let upkeep: Upkeep | undefined;
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => {
  upkeep?.stop();
  upkeep = undefined;
  vi.useRealTimers();
});

describe("the deliverer's upkeep", () => {
  it("when started, then it reports the backlog and the age of its oldest delivery in seconds", async () => {
    const d = doubles();
    upkeep = d.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(d.metrics.backlog.mock.calls).toEqual([[7, 30]]);
  });

  it("when the backlog is empty or its oldest is in the future, then the age is 0", async () => {
    const d = doubles();
    d.store.backlog.mockResolvedValueOnce({ pending: 0, oldestCreatedAt: null as never });
    d.store.backlog.mockResolvedValueOnce({ pending: 1, oldestCreatedAt: new Date(NOW + 60_000) });
    upkeep = d.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(d.metrics.backlog.mock.calls).toEqual([
      [0, 0],
      [1, 0],
    ]);
  });

  it("when 10 s pass, then the backlog is read again", async () => {
    const d = doubles();
    upkeep = d.start();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(d.store.backlog).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(d.store.backlog).toHaveBeenCalledTimes(2);
  });

  it("when started, then it purges what is older than the retention, batch after batch until one comes back short", async () => {
    const d = doubles([1000, 1000, 3]);
    upkeep = d.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(d.store.purge.mock.calls).toEqual([
      [new Date(NOW - RETENTION_MS), 1000],
      [new Date(NOW - RETENTION_MS), 1000],
      [new Date(NOW - RETENTION_MS), 1000],
    ]);
  });

  it("when an hour passes, then it purges again", async () => {
    const d = doubles();
    upkeep = d.start();
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000 - 1);
    expect(d.store.purge).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(d.store.purge).toHaveBeenCalledTimes(2);
  });

  it("when the store fails, then each failure is a warning naming what was not done", async () => {
    const d = doubles();
    d.store.backlog.mockRejectedValue(new Error("down"));
    d.store.purge.mockRejectedValue(new Error("down"));
    upkeep = d.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(d.warn.mock.calls.map(([, message]) => message).sort()).toEqual([
      "webhook backlog not read",
      "webhook deliveries not purged",
    ]);
    expect(d.warn.mock.calls[0]?.[0]).toEqual({ err: new Error("down") });
  });

  it("when stopped during a purge, then no further batch is purged and no timer runs", async () => {
    const d = doubles([1000, 1000, 1000]);
    let release: (() => void) | undefined;
    d.store.purge.mockImplementationOnce(
      () =>
        new Promise<number>((resolve) => {
          release = () => resolve(1000);
        }),
    );
    upkeep = d.start();
    await vi.advanceTimersByTimeAsync(0);
    upkeep.stop();
    release?.();
    await vi.advanceTimersByTimeAsync(2 * 60 * 60 * 1000);
    expect(d.store.purge).toHaveBeenCalledTimes(1);
    expect(d.store.backlog).toHaveBeenCalledTimes(1);
  });
});
