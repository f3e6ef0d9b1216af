// The overload guard and start-up: the lag sampled just after an app is ready holds start-up's
// own work, which is not load. A second of blocked event loop right after ready is not answered
// 503; the same block once the app has settled is. The block is real (the thread sleeps); the
// clock the guard reads for "just after ready" is the test's (performance.now, faked).
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AUTH, createTestApp, type TestApp } from "../helpers/app.ts";

/** Blocks the event loop for `ms` of real time (the faked performance clock stands still). */
const blockFor = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

describe("overload guard at start-up", () => {
  let test: TestApp;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    test = await createTestApp(undefined, undefined, { ops: { maxEventLoopDelayMs: 5 } });
  });
  afterAll(async () => {
    await test?.close();
    vi.useRealTimers();
  });

  const get = () => test.app.inject({ method: "GET", url: "/plants/1", headers: AUTH });
  /** Blocks the loop, and waits until the guard's sampler has measured the lag. */
  const lagged = async () => {
    blockFor(1200);
    // Polled on a real timer: vi.waitUntil would move the faked clock on.
    while (test.app.memoryUsage().eventLoopDelay <= 5) await sleep(20);
  };

  it("when the loop is blocked just after ready, then the next request is not refused as overloaded, and the same block later is", async () => {
    await lagged();
    expect((await get()).statusCode).toBe(404);

    // Past the settling time after ready (two seconds).
    vi.advanceTimersByTime(2000);
    await lagged();
    const refused = await get();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({
      error: 503,
      message: expect.stringMatching(/overloaded/),
    });
  });
});
