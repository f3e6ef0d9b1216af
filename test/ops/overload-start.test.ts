// The overload guard and start-up: the lag sampled just after an app is ready holds start-up's
// own work, which is not load. A second of blocked event loop right after ready is not answered
// 503; the same block once the app has settled is. The block is real (a busy loop), not a hook.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH, createTestApp, type TestApp } from "../helpers/app.ts";

const blockFor = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
};

describe("overload guard at start-up", () => {
  let test: TestApp;
  let readyAt = 0;
  beforeAll(async () => {
    test = await createTestApp(undefined, undefined, { ops: { maxEventLoopDelayMs: 5 } });
    readyAt = performance.now();
  });
  afterAll(async () => test.close());

  const get = () => test.app.inject({ method: "GET", url: "/plants/1", headers: AUTH });

  it("when the loop is blocked just after ready, then the next request is not refused as overloaded, and the same block later is", async () => {
    blockFor(1200);
    // Past the sampler's next tick, which the block delayed.
    await sleep(150);
    expect(performance.now() - readyAt).toBeLessThan(2000);
    expect((await get()).statusCode).toBe(404);

    await sleep(Math.max(0, 2100 - (performance.now() - readyAt)));
    blockFor(1200);
    await sleep(150);
    const refused = await get();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({
      error: 503,
      message: expect.stringMatching(/overloaded/),
    });
  });
});
