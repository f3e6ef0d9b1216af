// What every request passes before its operation's route, in one onRequest hook (Fastify runs
// each hook as a step of its own on every request), in this order: the server is not shutting
// down; its head can be read one way only (request-checks.ts); some operation takes it (else
// 404 or 405, before anything reads its body); and the requests before it on its connection
// have been answered where it must see what they did (connections.ts).
import type { FastifyRequest, onRequestHookHandler } from "fastify";
import type { ConnectionGuard } from "./connections.ts";
import type { Draining } from "./draining.ts";
import type { Problem } from "./errors.ts";
import { headProblem } from "./request-checks.ts";

export interface GateOptions {
  draining: Draining;
  connections: ConnectionGuard;
  /** The 404 or 405 for a request no operation's route took, or undefined. */
  unrouted(request: FastifyRequest): Problem | undefined;
}

export function requestGate({
  draining,
  connections,
  unrouted,
}: GateOptions): onRequestHookHandler {
  return (request, reply, done) => {
    const refusal = draining.refusal() ?? headProblem(request) ?? unrouted(request);
    if (refusal !== undefined) done(refusal);
    else connections.inOrder(request, reply, done);
  };
}
