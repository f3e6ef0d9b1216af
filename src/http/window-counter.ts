// Counts per key in fixed windows (a minute, for the rate limits), in memory, for at most
// `capacity` keys: toad-cache's LRU map forgets the key counted least recently first, so no
// client can grow it without bound, and a window's entry expires with the window.
import { LruMap } from "toad-cache";

export interface WindowCount {
  /** Counted in the current window, this call's step included. */
  count: number;
  /** Whole seconds until the window ends, at least 1. */
  resetInSeconds: number;
}

export interface WindowCounter {
  /** Counts one more for `key`. */
  add(key: string): WindowCount;
  /** The count for `key`, counting nothing. */
  peek(key: string): WindowCount;
}

interface Window {
  count: number;
  endsAt: number;
}

export function createWindowCounter(windowMs: number, capacity: number): WindowCounter {
  const windows = new LruMap<Window>(capacity, windowMs);
  // Each call gets its own snapshot: requests checked at the same moment each see the count as
  // it was after their own step.
  const snapshot = (window: Window | undefined, now: number): WindowCount => ({
    count: window?.count ?? 0,
    resetInSeconds: Math.max(1, Math.ceil(((window?.endsAt ?? now + windowMs) - now) / 1000)),
  });
  return {
    add(key) {
      const now = Date.now();
      let window = windows.get(key);
      if (window === undefined) {
        window = { count: 0, endsAt: now + windowMs };
        windows.set(key, window);
      }
      window.count++;
      return snapshot(window, now);
    },
    peek(key) {
      return snapshot(windows.get(key), Date.now());
    },
  };
}
