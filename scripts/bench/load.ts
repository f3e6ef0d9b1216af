// Drives POST /plants with autocannon: every request a new id, the same token and body shape.
import autocannon from "autocannon";
import { benchId, benchName } from "./ids.ts";

export interface LoadOptions {
  url: string;
  token: string;
  connections: number;
  durationSeconds: number;
  /** The first id number to use; each request takes the next one. */
  firstId: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors, timeouts and answers other than 200. */
  errors: number;
  /** How many id numbers were used (the next run starts after them). */
  sent: number;
  /** Responses received, of any status. */
  answered: number;
}

export async function drive(options: LoadOptions): Promise<LoadResult> {
  let next = options.firstId;
  const result = await autocannon({
    url: `${options.url}/plants`,
    connections: options.connections,
    duration: options.durationSeconds,
    method: "POST",
    headers: {
      authorization: `Bearer ${options.token}`,
      "content-type": "application/json",
    },
    requests: [
      {
        setupRequest: (request) => {
          const x = next++;
          const tag = x % 2 === 0 ? ',"tag":"bench"' : "";
          return { ...request, body: `{"id":${benchId(x)},"name":"${benchName(x)}"${tag}}` };
        },
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.mean,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    sent: next - options.firstId,
    answered: result.requests.total,
  };
}
