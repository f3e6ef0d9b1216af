// Every answered request counted and timed in the metrics, as the answer step's last part.
import type { Server } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import { Counter, Histogram } from "prom-client";
import { type Metrics, SECONDS_BUCKETS } from "../ops/metrics.ts";

/**
 * Counts and times every answered request, by operation (`unmatched` for a request no
 * operation took, so no client can grow the series without bound), method and status.
 */
export type RequestMetrics = (route: string, request: FastifyRequest, reply: FastifyReply) => void;

export function createRequestMetrics(server: Server, metrics: Metrics): RequestMetrics {
  const labelNames = ["route", "method", "status"] as const;
  const requests = new Counter({
    name: "plantstore_http_requests_total",
    help: "Requests answered, by operation (or unmatched), method and status",
    labelNames,
    registers: [metrics.registry],
  });
  const durations = new Histogram({
    name: "plantstore_http_request_duration_seconds",
    help: "Time from receiving a request to answering it",
    labelNames,
    buckets: SECONDS_BUCKETS,
    registers: [metrics.registry],
  });
  // prom-client's children for one set of labels, kept by a key of them: it hashes the labels
  // of every call otherwise.
  const series = new Map<string, { count: () => void; time: (seconds: number) => void }>();
  const seriesOf = (route: string, method: string, status: number) => {
    const key = `${route} ${method} ${status}`;
    let found = series.get(key);
    if (found === undefined) {
      const labels = { route, method, status: String(status) };
      const counter = requests.labels(labels);
      const histogram = durations.labels(labels);
      found = { count: () => counter.inc(), time: (seconds) => histogram.observe(seconds) };
      series.set(key, found);
    }
    return found;
  };
  server.on("drop", () => metrics.connectionsDropped.inc());
  return (route, request, reply) => {
    const one = seriesOf(route, request.method, reply.statusCode);
    one.count();
    one.time(reply.elapsedTime / 1000);
    if (reply.statusCode === 401) metrics.authFailures.inc({ reason: challengeError(reply) });
  };
}

/** A 401's RFC 6750 error code (`invalid_token` when credentials were refused), or `missing`. */
function challengeError(reply: { getHeader(name: string): unknown }): string {
  const challenge = String(reply.getHeader("www-authenticate") ?? "");
  return /error="([a-z_]+)"/.exec(challenge)?.[1] ?? "missing";
}
