// Counts per key in fixed windows (a minute, for the rate limits), in memory, for at most
// `capacity` keys: the key counted least recently is forgotten first, so no client can grow
// it without bound. Each call returns its own snapshot of the count, so requests checked at
// the same moment each see the count as it was after their own step.
import { createLruMap } from "../lru-map.ts";

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
  startedAt: number;
}

export function createWindowCounter(windowMs: number, capacity: number): WindowCounter {
  const windows = createLruMap<Window>(capacity);
  const current = (key: string, now: number): Window | undefined => {
    const window = windows.peek(key);
    return window !== undefined && now - window.startedAt < windowMs ? window : undefined;
  };
  const snapshot = (window: Window | undefined, now: number): WindowCount => ({
    count: window?.count ?? 0,
    resetInSeconds: Math.max(
      1,
      Math.ceil((window === undefined ? windowMs : window.startedAt + windowMs - now) / 1000),
    ),
  });
  return {
    add(key) {
      const now = Date.now();
      const window = current(key, now) ?? { count: 0, startedAt: now };
      window.count++;
      windows.set(key, window);
      return snapshot(window, now);
    },
    peek(key) {
      const now = Date.now();
      return snapshot(current(key, now), now);
    },
  };
}
