// The admit step, first of every request: a CORS preflight from an origin not allowed is
// refused; the server is not overloaded nor shutting down; the request's head can be read one
// way only. Nothing of the request's operation is known yet.
import underPressure from "@fastify/under-pressure";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { nameOf } from "../config/settings.ts";
import { targetPath, targetProblem } from "../text/request-target.ts";
import { Problem } from "./errors.ts";

export interface AdmissionOptions {
  /** The origins whose preflights are answered (PLANTSTORE_CORS_ORIGINS). */
  corsOrigins: readonly string[] | "*";
  /** Past this lag requests are refused; 0 for never (PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS). */
  maxEventLoopDelayMs: number;
}

export interface Admission {
  /** Why the request is not admitted, or undefined. */
  refusal(request: FastifyRequest): Problem | undefined;
  /** Whether app.close() is draining: every answer closes its connection then. */
  closing(): boolean;
}

export async function createAdmission(
  app: FastifyInstance,
  options: AdmissionOptions,
): Promise<Admission> {
  const { corsOrigins } = options;
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  const overloaded = await watchOverload(app, options.maxEventLoopDelayMs);
  return {
    refusal: (request) =>
      corsRefusal(corsOrigins, request) ??
      overloaded(request) ??
      (closing ? SHUTTING_DOWN : undefined) ??
      headProblem(request),
    closing: () => closing,
  };
}

// Fastify's own 503-while-closing body is not the contract's Error shape (return503OnClosing
// is off), so a late request gets this, and its connection closes (answer-headers.ts).
const SHUTTING_DOWN = new Problem(503, "the server is shutting down; retry shortly", {
  "retry-after": "1",
});

/**
 * A preflight from an origin PLANTSTORE_CORS_ORIGINS does not allow gets a 403 that says why,
 * with no CORS headers; @fastify/cors (cors.ts) answers the others.
 */
function corsRefusal(origins: readonly string[] | "*", request: FastifyRequest) {
  if (request.method !== "OPTIONS") return undefined;
  const { origin } = request.headers;
  if (origin === undefined || request.headers["access-control-request-method"] === undefined) {
    return undefined;
  }
  if (origins === "*" || origins.includes(origin)) return undefined;
  return new Problem(
    403,
    origins.length === 0
      ? `cross-origin requests are not enabled on this server (${CORS_SETTING})`
      : `the origin ${origin} may not call this server (${CORS_SETTING})`,
  );
}

const CORS_SETTING = nameOf("ops.corsOrigins");

// Liveness and metrics stay answered under overload: an orchestrator must not restart a
// process for being busy, and an operator needs the numbers most when it is.
const OVERLOAD_EXEMPT = ["/healthz", "/metrics"];
// The lag is sampled every second; two leaves a retry a fresh sample to meet.
const OVERLOADED = new Problem(503, "the server is overloaded; retry shortly", {
  "retry-after": "2",
});
// The samples just after start-up hold start-up's own work (compiling the document's validators
// and serializers blocks the loop for a second or more), which is not load: none refuses.
const SETTLE_MS = 2000;

/**
 * While the event loop lags past `maxDelayMs`, a request is refused at once with 503 rather
 * than queued without bound. @fastify/under-pressure samples the lag; registered without
 * thresholds it adds no hook of its own, and admission asks it.
 */
async function watchOverload(
  app: FastifyInstance,
  maxDelayMs: number,
): Promise<(request: FastifyRequest) => Problem | undefined> {
  if (maxDelayMs === 0) return () => undefined;
  let readyAt = Number.POSITIVE_INFINITY;
  app.addHook("onReady", async () => {
    readyAt = performance.now();
  });
  await app.register(underPressure);
  return (request) =>
    app.memoryUsage().eventLoopDelay > maxDelayMs &&
    performance.now() - readyAt >= SETTLE_MS &&
    !OVERLOAD_EXEMPT.includes(targetPath(request.url))
      ? OVERLOADED
      : undefined;
}

// Headers that must appear at most once: Node keeps the first of several silently, so a
// request carrying two would be read differently by us and by any proxy in front of us.
const SINGLETON_HEADERS = new Set(["authorization", "content-type", "content-length", "host"]);
const SINGLETON_LENGTHS = new Set([...SINGLETON_HEADERS].map((name) => name.length));

/**
 * Most header lines a request may carry. Node would stop collecting them at 2000 and a
 * second Authorization after that would go unseen, so every line is collected (the 16 KiB
 * head limit bounds them) and a head with more than this many is refused.
 */
export const MAX_HEADER_LINES = 200;

/** A 400 or 431 for a head that cannot be read unambiguously, or undefined. */
function headProblem(request: FastifyRequest): Problem | undefined {
  const raw = request.raw.rawHeaders;
  if (raw.length / 2 > MAX_HEADER_LINES) {
    return new Problem(431, `the request has more than ${MAX_HEADER_LINES} header lines`);
  }
  if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
    return new Problem(400, "an HTTP/1.1 request needs a Host header");
  }
  let seen: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const given = raw[i] ?? "";
    // Only a name as long as one of them can be one: most lines are not lower-cased at all.
    if (!SINGLETON_LENGTHS.has(given.length)) continue;
    // Most clients send these names lower-case already.
    const name = SINGLETON_HEADERS.has(given) ? given : given.toLowerCase();
    if (!SINGLETON_HEADERS.has(name)) continue;
    seen ??= [];
    if (seen.includes(name)) return new Problem(400, `the ${name} header appears more than once`);
    seen.push(name);
  }
  const target = targetProblem(request.url);
  return target === undefined ? undefined : new Problem(400, target);
}
