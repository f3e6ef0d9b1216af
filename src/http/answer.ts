// What every answer carries and leaves behind: the headers set in one onSend hook (the security
// headers, the request id, Connection: close while the server drains or when the request's body
// was never read; one hook for all, because Fastify runs every onSend hook as a step of its own
// on every answer), and the process's log: pino, as Fastify's logger, with one JSON line per
// answered request in place of Fastify's two, written asynchronously to standard output in whole
// lines. A line never holds a credential, a body, a query value, a fragment or userinfo
// (gate.ts). Each is also counted and timed in the metrics (addRequestMetrics).
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import pino from "pino";
import { Counter, Histogram } from "prom-client";
import { routedOperationId } from "../openapi/routes.ts";
import { type Metrics, SECONDS_BUCKETS } from "../ops/metrics.ts";
import type { ConnectionGuard } from "./connections.ts";
import { type Draining, loggedTarget } from "./gate.ts";

// Headers fit for a JSON API on every answer: no content sniffing, no caching of answers that
// carry plants or errors. Helmet is not used: its defaults are for HTML pages (CSP, frame and
// referrer policies), which a JSON API does not serve.
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

// Banners name the software to an attacker; Node and Fastify send none, and none may be added.
const BANNERS = ["server", "x-powered-by"];

export function addAnswerHeaders(
  app: FastifyInstance,
  draining: Draining,
  connections: ConnectionGuard,
): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    // A route that sets its own (a cacheable document, say) keeps it.
    for (const name in SECURITY_HEADERS) {
      if (!reply.hasHeader(name)) reply.header(name, SECURITY_HEADERS[name] as string);
    }
    for (const name of BANNERS) reply.removeHeader(name);
    reply.header("x-request-id", request.id);
    if (draining.closing()) reply.header("connection", "close");
    // `complete` is false while a body is still on its way (undefined under inject).
    if (request.raw.complete === false) connections.closeAfter(reply);
    done(null, payload);
  });
}

// Short, printable and free of spaces, quotes and commas: safe in a log line and a header, and
// a repeated header (which Node joins with ", ") is never mistaken for one id.
const SANE_REQUEST_ID = /^[A-Za-z0-9._~:@/+=-]{1,128}$/;

/**
 * The request id: the caller's own X-Request-Id when it is sane (so one id follows a request
 * through a proxy, this server and its logs), a fresh UUID otherwise; echoed on every answer.
 */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Where lines go instead of standard output (tests). */
export interface LogStream {
  write(line: string): void;
}

/** PIPE_BUF on Linux: a write to a pipe of at most this many bytes is never cut into. */
const PIPE_BUF = 4096;
// Lines waiting for a stalled standard output, at most; later ones are dropped.
const MAX_WAITING_BYTES = 16 * 1024 * 1024;
// A quiet server's lines wait at most this long for a write's worth to gather.
const FLUSH_INTERVAL_MS = 250;

export function createLogger(level: string, stream?: LogStream): FastifyBaseLogger {
  if (stream !== undefined) return pino({ level }, stream);
  // Asynchronous writes of whole lines, gathered to PIPE_BUF and never more: a cluster's
  // workers share the pipe, and their lines never cut into each other's; a write per line
  // instead cost several percent of a request. A stalled or closed standard output neither
  // stops nor stalls the service: lines beyond the bound, or after EPIPE, are dropped.
  const destination = pino.destination({
    dest: 1,
    sync: false,
    // sonic-boom writes once this much has gathered (it must be below maxWrite).
    minLength: PIPE_BUF - 1024,
    maxWrite: PIPE_BUF,
    maxLength: MAX_WAITING_BYTES,
  });
  destination.on("error", () => undefined);
  setInterval(() => destination.flush(), FLUSH_INTERVAL_MS).unref();
  return pino({ level }, destination);
}

/** Fastify's request lines, as this service writes them: none when a request comes in, one
 * when it has been answered. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      url: loggedTarget(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    // An error here is the response's own (the socket failed while writing it).
    if (error) reply.log.warn({ ...line, err: error }, "request completed");
    else reply.log.info(line, "request completed");
  }
}

/**
 * Counts and times every answered request, by operation (`unmatched` for a request no
 * operation took, so no client can grow the series without bound), method and status.
 */
export function addRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
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
  app.server.on("drop", () => metrics.connectionsDropped.inc());
  app.addHook("onResponse", (request, reply, done) => {
    const one = seriesOf(
      routedOperationId(request) ?? "unmatched",
      request.method,
      reply.statusCode,
    );
    one.count();
    one.time(reply.elapsedTime / 1000);
    if (reply.statusCode === 401) metrics.authFailures.inc({ reason: challengeError(reply) });
    done();
  });
}

/** A 401's RFC 6750 error code (`invalid_token` when credentials were refused), or `missing`. */
function challengeError(reply: { getHeader(name: string): unknown }): string {
  const challenge = String(reply.getHeader("www-authenticate") ?? "");
  return /error="([a-z_]+)"/.exec(challenge)?.[1] ?? "missing";
}
