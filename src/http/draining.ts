// Behaviour while app.close() drains: late requests get 503, and every answer closes its
// connection so that a keep-alive client cannot hold the server open until the deadline.
import type { FastifyInstance, FastifyReply } from "fastify";
import { type ApiResponse, errorResponse } from "./responses.ts";

/** Returns what an answer about to be sent needs while draining (src/http/answer-headers.ts). */
export function addDraining(
  app: FastifyInstance,
  send: (reply: FastifyReply, response: ApiResponse) => FastifyReply,
): (reply: FastifyReply) => void {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  // Hooks on every request take Fastify's callback form: no promise per hook and request.
  app.addHook("onRequest", (_request, reply, done) => {
    if (!closing) return done();
    send(
      reply,
      errorResponse(503, "the server is shutting down; retry shortly", { "retry-after": "1" }),
    );
  });
  return (reply) => {
    if (closing) reply.header("connection", "close");
  };
}
