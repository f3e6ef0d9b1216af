// Overload (@fastify/under-pressure): while the event loop lags past the configured delay,
// requests are refused at once with 503 and Retry-After instead of queueing without bound.
// Liveness and metrics stay answered: an orchestrator must not restart a process for being
// busy, and an operator needs the numbers most when it is.
import underPressure from "@fastify/under-pressure";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type ApiResponse, errorResponse } from "./responses.ts";

type Send = (reply: FastifyReply, response: ApiResponse) => FastifyReply;

const EXEMPT_PATHS = ["/healthz", "/metrics"];
// The lag is sampled every second; two leaves a retry a fresh sample to meet.
const RETRY_AFTER_SECONDS = 2;

export async function addOverloadGuard(
  app: FastifyInstance,
  send: Send,
  maxEventLoopDelayMs: number,
): Promise<void> {
  if (maxEventLoopDelayMs === 0) return;
  const overloaded = errorResponse(503, "the server is overloaded; retry shortly", {
    "retry-after": String(RETRY_AFTER_SECONDS),
  });
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    // A promise that settles once the 503 is sent (or at once for an exempt path).
    pressureHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      // No log line of its own: under overload that would double the logging; the request's
      // line has the 503, and /metrics counts them.
      if (EXEMPT_PATHS.includes(pathOf(request))) return;
      return send(reply, overloaded);
    },
  });
}

const pathOf = (request: FastifyRequest): string => request.url.split("?", 1)[0] ?? "";
