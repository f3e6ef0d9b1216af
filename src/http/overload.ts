// Overload (@fastify/under-pressure): while the event loop lags past the configured delay,
// requests are refused at once with 503 and Retry-After instead of queueing without bound.
// Liveness and metrics stay answered: an orchestrator must not restart a process for being
// busy, and an operator needs the numbers most when it is.
import underPressure from "@fastify/under-pressure";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Problem } from "./errors.ts";
import { targetPath } from "./request-target.ts";

const EXEMPT_PATHS = ["/healthz", "/metrics"];
// The lag is sampled every second; two leaves a retry a fresh sample to meet.
const RETRY_AFTER_SECONDS = 2;
// The samples just after start-up hold start-up's own work (compiling the document's validators
// and serializers blocks the loop for a second or more), which is not load: none refuses.
const SETTLE_MS = 2000;

export async function addOverloadGuard(
  app: FastifyInstance,
  maxEventLoopDelayMs: number,
): Promise<void> {
  if (maxEventLoopDelayMs === 0) return;
  let readyAt = Number.POSITIVE_INFINITY;
  app.addHook("onReady", async () => {
    readyAt = performance.now();
  });
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    // No log line of its own: under overload that would double the logging; the request's
    // line has the 503, and /metrics counts them.
    pressureHandler: async (request: FastifyRequest) => {
      if (EXEMPT_PATHS.includes(targetPath(request.url))) return;
      if (performance.now() - readyAt < SETTLE_MS) return;
      throw new Problem(503, "the server is overloaded; retry shortly", {
        "retry-after": String(RETRY_AFTER_SECONDS),
      });
    },
  });
}
