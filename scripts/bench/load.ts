// Drives one operation with autocannon: creates (every request a new id), reads of stored ids,
// or list pages starting after a stored id; the same token throughout.
import autocannon from "autocannon";
import { benchId, benchName } from "./ids.ts";

/** What the load asks for: POST /plants, GET /plants/{id}, or GET /plants?after=…&limit=… */
export type Operation = "create" | "get" | "list";

/** Plants in a list page: the most a client would usually ask for at once. */
export const LIST_LIMIT = 100;

export interface LoadOptions {
  url: string;
  token: string;
  connections: number;
  durationSeconds: number;
  operation: Operation;
  /** Creates: the first id number to use, each request taking the next. */
  firstId: number;
  /** Reads: an id number of a plant known to be stored. */
  pickStored?: () => number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors, timeouts and answers other than 2xx. */
  errors: number;
  /** What the errors were, e.g. "404 ×1, timeouts ×2"; empty when there were none. */
  errorKinds: string;
  /** How many id numbers were used (the next run starts after them). */
  sent: number;
  /** Responses received, of any status. */
  answered: number;
}

/** POST /plants with a new id each time, from id number `firstId` on; `sent` counts them. */
export function createRequests(firstId: number): { request: autocannon.Request; sent(): number } {
  let next = firstId;
  return {
    request: {
      method: "POST",
      headers: { "content-type": "application/json" },
      setupRequest: (request) => {
        const x = next++;
        const tag = x % 2 === 0 ? ',"tag":"bench"' : "";
        return { ...request, body: `{"id":${benchId(x)},"name":"${benchName(x)}"${tag}}` };
      },
    },
    sent: () => next - firstId,
  };
}

export async function drive(options: LoadOptions): Promise<LoadResult> {
  const creates = createRequests(options.firstId);
  const stored = options.pickStored ?? (() => 0);
  const request: autocannon.Request =
    options.operation === "create"
      ? creates.request
      : {
          method: "GET",
          setupRequest: (request) => ({
            ...request,
            path:
              options.operation === "get"
                ? `/plants/${benchId(stored())}`
                : `/plants?after=${benchId(stored())}&limit=${LIST_LIMIT}`,
          }),
        };
  const result = await autocannon({
    url: `${options.url}/plants`,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: { authorization: `Bearer ${options.token}` },
    requests: [request],
  });
  return {
    requestsPerSecond: result.requests.mean,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    errorKinds: errorKinds(result),
    sent: creates.sent(),
    answered: result.requests.total,
  };
}

export function errorKinds(result: autocannon.Result): string {
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => !status.startsWith("2"))
    .map(([status, { count }]) => `${status} ×${count ?? 0}`);
  if (result.timeouts > 0) statuses.push(`timeouts ×${result.timeouts}`);
  if (result.errors > 0) statuses.push(`connection errors ×${result.errors}`);
  return statuses.join(", ");
}

/** Id numbers known to be stored, as [from, to) ranges. */
export type Stored = [number, number][];

/** One of the stored id numbers, any of them alike: reads land all over the key space. */
export function pickStored(stored: Stored): number {
  const total = stored.reduce((sum, [from, to]) => sum + (to - from), 0);
  let at = Math.floor(Math.random() * total);
  for (const [from, to] of stored) {
    if (at < to - from) return from + at;
    at -= to - from;
  }
  return 0;
}

/**
 * Adds a create run's ids to `stored`, but its last `connections` of them: a request per
 * connection may have been cut off when the run ended.
 */
export function addCreated(
  stored: Stored,
  firstId: number,
  result: LoadResult,
  connections: number,
): void {
  stored.push([firstId, Math.max(firstId, firstId + result.sent - connections)]);
}
