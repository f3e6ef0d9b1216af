// Concurrent client loops that create plants with fresh ids against a real server, and
// record what became of every request.

import { plantJson, uniqueId } from "./app.ts";
import type { Plant } from "./plants.ts";
import { type Answer, isTimeout, post, REQUEST_TIMEOUT_MS } from "./socket-http.ts";

export type Outcome =
  | { kind: "answer"; id: bigint; plant: Plant; answer: Answer }
  /** Refused, reset or closed below HTTP: the request's fate is unknown. */
  | { kind: "network-error"; id: bigint; plant: Plant; error: Error }
  /** No answer within the bound: the request hung. */
  | { kind: "timeout"; id: bigint; plant: Plant; error: Error };

export interface LoadOptions {
  url: string;
  /** Number of concurrent client loops. */
  loops: number;
  /** No loop starts a new request once this many have been started in all. */
  maxRequests: number;
  /** No loop starts a new request after this many milliseconds. */
  maxDurationMs: number;
  plantFor(id: bigint): Plant;
  requestTimeoutMs?: number;
  /** A pause after each request, so loops answered at once (503s) do not spin. */
  pauseMs?: number;
}

export interface Load {
  outcomes: Outcome[];
  /** Requests sent and not yet answered or failed. */
  inFlight(): number;
  /** Ids answered 200, so far. */
  acknowledged(): number;
  /** Makes every loop stop before its next request. */
  stop(): void;
  /** Resolves once every loop has finished. */
  done: Promise<Outcome[]>;
}

/** Each loop sends one request at a time and ends at its first network error or timeout. */
export function startLoad(options: LoadOptions): Load {
  const outcomes: Outcome[] = [];
  let started = 0;
  let inFlight = 0;
  let acknowledged = 0;
  let stopped = false;
  const deadline = Date.now() + options.maxDurationMs;
  const timeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;

  const loop = async (): Promise<void> => {
    while (!stopped && started < options.maxRequests && Date.now() < deadline) {
      started++;
      const id = uniqueId();
      const plant = options.plantFor(id);
      inFlight++;
      try {
        const answer = await post(
          options.url,
          plantJson(id, plant.name, plant.tag),
          undefined,
          timeoutMs,
        );
        if (answer.status === 200) acknowledged++;
        outcomes.push({ kind: "answer", id, plant, answer });
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        outcomes.push({
          kind: isTimeout(failure) ? "timeout" : "network-error",
          id,
          plant,
          error: failure,
        });
        return;
      } finally {
        inFlight--;
      }
      if (options.pauseMs !== undefined) await sleep(options.pauseMs);
    }
  };

  const done = Promise.all(Array.from({ length: options.loops }, loop)).then(() => outcomes);
  return {
    outcomes,
    inFlight: () => inFlight,
    acknowledged: () => acknowledged,
    stop: () => {
      stopped = true;
    },
    done,
  };
}

/** Polls `condition` every few milliseconds; rejects with `what` if it is still false after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(5);
  }
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** The Plant the server answers for a NewPlant: name, and tag only if it was sent. */
export const plantOf = (plant: Plant): Plant =>
  plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag };

/** One line per outcome, for a failure message. */
export function describeOutcome(outcome: Outcome): string {
  return outcome.kind === "answer"
    ? `${outcome.id}: HTTP ${outcome.answer.status} ${outcome.answer.body}`
    : `${outcome.id}: ${outcome.kind} ${outcome.error.message}`;
}
