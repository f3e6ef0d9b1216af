// What an attempt's outcome means for its delivery: delivered on a 2xx, the endpoint gone on a
// 410, else another attempt after the schedule's next delay (with jitter), or failed after the
// last one.
import type { AttemptRecord } from "../store/webhooks.ts";
import type { AttemptResult } from "./send.ts";

// Up to 10 % either way, so that deliveries failed together do not all come back together.
const JITTER = 0.1;

export function recordOf(
  result: AttemptResult,
  attemptsBefore: number,
  scheduleMs: readonly number[],
  random: () => number = Math.random,
): AttemptRecord {
  if (result.kind === "answered" && result.status >= 200 && result.status < 300) {
    return { kind: "delivered", status: result.status };
  }
  if (result.kind === "answered" && result.status === 410) {
    return { kind: "gone", status: 410 };
  }
  const status = result.kind === "answered" ? result.status : null;
  const error = result.kind === "failed" ? result.error : null;
  const delay = scheduleMs[attemptsBefore];
  if (delay === undefined) return { kind: "failed", status, error };
  const delayMs = Math.round(delay * (1 + JITTER * (2 * random() - 1)));
  return { kind: "retry", status, error, delayMs };
}
