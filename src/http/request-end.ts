// Calls `ended` once for every request that reached Fastify's hooks, when its answer has been
// handed to the socket (the response's `finish`, as Fastify's own timing uses), with the time
// since then. This is where the completion line and the request metrics are written. Fastify
// runs without a logger and without `onResponse` hooks (root-logger.ts): each answer then
// carries one listener, a function shared by every request, instead of Fastify's two and a
// closure. An answer that never finishes (the client went away) is neither logged nor
// counted, as with Fastify's. Fastify also listened for the answer's `error`, which Node emits
// only for a write after its end; neither Fastify nor this app writes one (with no listener,
// such a bug would end the process rather than log a line).
import type { ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

export type RequestEnded = (request: FastifyRequest, reply: FastifyReply, ms: number) => void;

interface Ending {
  request: FastifyRequest;
  reply: FastifyReply;
  started: number;
  ended: RequestEnded;
}

const ENDING = Symbol("plantstore request end");
type EndingResponse = ServerResponse & { [ENDING]?: Ending | undefined };

/** Registers the hook; call it before any other `onRequest` hook, so it sees every request. */
export function addRequestEnd(app: FastifyInstance, ended: RequestEnded): void {
  app.addHook("onRequest", (request, reply, done) => {
    const response = reply.raw as EndingResponse;
    response[ENDING] = { request, reply, started: performance.now(), ended };
    response.on("finish", finished);
    done();
  });
}

function finished(this: EndingResponse): void {
  const ending = this[ENDING];
  if (ending === undefined) return;
  this[ENDING] = undefined;
  const { request, reply, started } = ending;
  try {
    ending.ended(request, reply, performance.now() - started);
  } catch (error) {
    // Thrown inside the response's own event: uncaught, it would end the process. Fastify's
    // onResponse runner caught it the same way.
    reply.log.error({ err: error }, "request failed");
  }
}
