import { afterEach, describe, expect, it, vi } from "vitest";
import { createWindowCounter } from "../../src/http/window-counter.ts";

describe("fixed-window counts", () => {
  afterEach(() => vi.useRealTimers());

  it("when a key is counted many times in one tick, then each call sees its own count", () => {
    const counter = createWindowCounter(60_000, 100);
    const counts = Array.from({ length: 5 }, () => counter.add("a").count);
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    expect(counter.peek("a").count).toBe(5);
    expect(counter.peek("b").count).toBe(0);
  });

  it("when the window has passed, then the count starts again and the reset is a whole window away", () => {
    vi.useFakeTimers();
    const counter = createWindowCounter(60_000, 100);
    counter.add("a");
    vi.advanceTimersByTime(59_500);
    expect(counter.add("a")).toEqual({ count: 2, resetInSeconds: 1 });
    vi.advanceTimersByTime(500);
    expect(counter.peek("a")).toEqual({ count: 0, resetInSeconds: 60 });
    expect(counter.add("a")).toEqual({ count: 1, resetInSeconds: 60 });
  });

  it("when more keys than the capacity are counted, then the least recently counted is forgotten", () => {
    const counter = createWindowCounter(60_000, 2);
    counter.add("a");
    counter.add("b");
    counter.add("a");
    counter.add("c");
    expect([counter.peek("a").count, counter.peek("b").count, counter.peek("c").count]).toEqual([
      2, 0, 1,
    ]);
  });
});
