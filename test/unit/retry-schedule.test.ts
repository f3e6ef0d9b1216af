// What an attempt's outcome means for its delivery (src/webhooks/retry-schedule.ts): delivered on
// any 2xx and only then, gone on a 410, else a retry after the schedule's delay within 10 % either
// way, or failed once the schedule is spent.
import { describe, expect, it } from "vitest";
import { recordOf } from "../../src/webhooks/retry-schedule.ts";
import type { AttemptResult } from "../../src/webhooks/send.ts";

const answered = (status: number): AttemptResult => ({ kind: "answered", status, durationMs: 5 });
const SCHEDULE = [1000, 60_000];
const middle = () => 0.5;

describe("an attempt's record", () => {
  it("when the receiver answers 200 to 299, then the delivery is delivered with that status", () => {
    for (const status of [200, 204, 299]) {
      expect(recordOf(answered(status), 0, SCHEDULE, middle)).toEqual({
        kind: "delivered",
        status,
      });
    }
  });

  it("when the receiver answers just outside 2xx, then the delivery is retried", () => {
    for (const status of [199, 300]) {
      expect(recordOf(answered(status), 0, SCHEDULE, middle)).toEqual({
        kind: "retry",
        status,
        error: null,
        delayMs: 1000,
      });
    }
  });

  it("when the receiver answers 410, then its endpoint is gone", () => {
    expect(recordOf(answered(410), 0, SCHEDULE, middle)).toEqual({ kind: "gone", status: 410 });
  });

  it("when the attempt failed without an answer, then the retry keeps the error and no status", () => {
    const failed: AttemptResult = {
      kind: "failed",
      error: "timeout",
      durationMs: 9,
      timedOut: true,
    };
    expect(recordOf(failed, 1, SCHEDULE, middle)).toEqual({
      kind: "retry",
      status: null,
      error: "timeout",
      delayMs: 60_000,
    });
  });

  it("when the schedule is spent, then the delivery has failed", () => {
    expect(recordOf(answered(503), 2, SCHEDULE, middle)).toEqual({
      kind: "failed",
      status: 503,
      error: null,
    });
  });

  it("when the jitter is at its ends, then the delay is 10 % shorter or longer than the schedule's", () => {
    const delay = (random: number) => {
      const record = recordOf(answered(500), 0, SCHEDULE, () => random);
      return record.kind === "retry" ? record.delayMs : undefined;
    };
    expect(delay(0)).toBe(900);
    expect(delay(1)).toBe(1100);
    expect(delay(0.75)).toBe(1050);
  });
});
