// Clients that create plants, read each acknowledged one back and delete every third, against
// one or more real servers, every request bounded in time and every answer recorded; and what
// a run must show: only the answers each step allows, every 503 with Retry-After, no request
// left without an answer, every read agreeing with what was acknowledged, and the database
// holding exactly what was acknowledged.

import { AUTH, plantJson, uniqueId } from "./app.ts";
import type { Plant } from "./plants.ts";
import { isTimeout } from "./socket-http.ts";

export type Step = "create" | "get" | "delete" | "get-deleted";

export interface Call {
  step: Step;
  id: bigint;
  plant: Plant;
  server: string;
  /** When it was sent (epoch ms). */
  at: number;
  status?: number;
  retryAfter?: string | null;
  body?: string;
  /** No HTTP answer: the request hung (timeout) or failed below HTTP. */
  failure?: "timeout" | "network";
  error?: string;
}

export interface MixedLoadOptions {
  servers: readonly string[];
  /** Concurrent clients; client i talks to servers[i % servers.length]. */
  clients: number;
  /** A request without an answer by then has hung. */
  requestTimeoutMs: number;
  /** No client starts a request after this many milliseconds. */
  maxDurationMs: number;
  /**
   * Nor once this many creates have been answered 200: a test that needs that much traffic gets
   * it however slow the machine is, with maxDurationMs as its deadline.
   */
  untilCreated?: number;
  /** A pause after each answer, so that clients answered at once (503s) do not spin. */
  pauseMs?: number;
}

export interface MixedLoad {
  calls: Call[];
  /** Answers so far with `status` to `step`, sent after `since` (epoch ms) when given. */
  count(step: Step, status: number, since?: number): number;
  stop(): void;
  done: Promise<Call[]>;
}

export function startMixedLoad(options: MixedLoadOptions): MixedLoad {
  const calls: Call[] = [];
  let stopped = false;
  let created = 0;
  const endAt = Date.now() + options.maxDurationMs;
  const going = () =>
    !stopped && Date.now() < endAt && created < (options.untilCreated ?? Number.POSITIVE_INFINITY);

  const send = async (server: string, step: Step, id: bigint, plant: Plant): Promise<Call> => {
    const call: Call = { step, id, plant, server, at: Date.now() };
    calls.push(call);
    const init: RequestInit = {
      method: step === "create" ? "POST" : step === "delete" ? "DELETE" : "GET",
      headers: { ...AUTH, "content-type": "application/json" },
      signal: AbortSignal.timeout(options.requestTimeoutMs),
    };
    if (step === "create") init.body = plantJson(id, plant.name, plant.tag);
    try {
      const response = await fetch(
        step === "create" ? `${server}/plants` : `${server}/plants/${id}`,
        init,
      );
      call.body = await response.text();
      call.status = response.status;
      call.retryAfter = response.headers.get("retry-after");
    } catch (error) {
      call.failure = isTimeout(error) ? "timeout" : "network";
      call.error = error instanceof Error ? error.message : String(error);
    }
    return call;
  };

  const client = async (server: string): Promise<void> => {
    while (going()) {
      const id = uniqueId();
      const plant: Plant =
        id % 2n === 0n ? { name: `load ${id}`, tag: "even" } : { name: `load ${id}` };
      const create = await send(server, "create", id, plant);
      if (create.status === 200) created++;
      if (create.status === 200 && going()) {
        await send(server, "get", id, plant);
        if (id % 3n === 0n && going()) {
          const deleted = await send(server, "delete", id, plant);
          if (deleted.status === 204 && going()) await send(server, "get-deleted", id, plant);
        }
      }
      if (options.pauseMs !== undefined) await sleepMs(options.pauseMs);
    }
  };

  const done = Promise.all(
    Array.from({ length: options.clients }, (_, i) =>
      client(options.servers[i % options.servers.length] as string),
    ),
  ).then(() => calls);
  return {
    calls,
    count: (step, status, since = 0) =>
      calls.filter((c) => c.step === step && c.status === status && c.at >= since).length,
    stop: () => {
      stopped = true;
    },
    done,
  };
}

// What each step may be answered, the plant being where its earlier steps left it: 503 is
// always allowed (the store was away), nothing else is.
const ALLOWED: Record<Step, readonly number[]> = {
  create: [200, 503],
  get: [200, 503],
  delete: [204, 503],
  "get-deleted": [404, 503],
};

/** Every call that was not answered as it should have been, one line each. */
export function wrongAnswers(calls: readonly Call[]): string[] {
  const wrong: string[] = [];
  for (const call of calls) {
    const what = `${call.step} ${call.id} on ${call.server}`;
    if (call.failure !== undefined) {
      wrong.push(`${what}: no answer (${call.failure}: ${call.error})`);
    } else if (!ALLOWED[call.step].includes(call.status ?? 0)) {
      wrong.push(`${what}: ${call.status} ${call.body}`);
    } else if (call.status === 503 && !/^[1-9]\d*$/.test(call.retryAfter ?? "")) {
      wrong.push(`${what}: 503 without Retry-After`);
    } else if (call.step === "get" && call.status === 200 && !samePlant(call.body, call)) {
      wrong.push(`${what}: read back as ${call.body}`);
    }
  }
  return wrong;
}

function samePlant(body: string | undefined, call: Call): boolean {
  try {
    const read = JSON.parse(body ?? "") as { name?: unknown; tag?: unknown };
    // The id as written, digit for digit (JSON.parse would round one past 2^53).
    return (
      /"id":(-?\d+)/.exec(body ?? "")?.[1] === String(call.id) &&
      read.name === call.plant.name &&
      read.tag === call.plant.tag
    );
  } catch {
    return false;
  }
}

/**
 * Every acknowledged write the database does not hold, given what it holds: a plant created
 * (200) and not deleted since must be there exactly; one deleted (204) must not be.
 */
export function lostWrites(
  calls: readonly Call[],
  stored: ReadonlyMap<string, { name: string; tag: string | null }>,
): string[] {
  const lost: string[] = [];
  const byId = new Map<bigint, Call[]>();
  for (const call of calls) byId.set(call.id, [...(byId.get(call.id) ?? []), call]);
  for (const [id, steps] of byId) {
    const created = steps.find((c) => c.step === "create" && c.status === 200);
    const deleting = steps.find((c) => c.step === "delete");
    const row = stored.get(String(id));
    if (deleting?.status === 204) {
      if (row !== undefined) lost.push(`${id}: deleted (204), still stored`);
    } else if (created !== undefined && deleting?.status === 404) {
      lost.push(`${id}: created (200), gone by its delete (404)`);
    } else if (created !== undefined && deleting === undefined) {
      const plant = created.plant;
      if (row === undefined) lost.push(`${id}: created (200), not stored`);
      else if (row.name !== plant.name || row.tag !== (plant.tag ?? null)) {
        lost.push(`${id}: created (200), stored as ${JSON.stringify(row)}`);
      }
    }
  }
  return lost;
}

/** Tallies of statuses by step, for messages. */
export function tally(calls: readonly Call[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of calls) {
    const key = `${call.step} ${call.status ?? call.failure}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const sleepMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
