// Behaviour while app.close() drains: late requests get 503, and every answer closes its
// connection so that a keep-alive client cannot hold the server open until the deadline.
import type { FastifyInstance, FastifyReply } from "fastify";
import { type ApiResponse, errorResponse } from "./responses.ts";

export function addDraining(
  app: FastifyInstance,
  send: (reply: FastifyReply, response: ApiResponse) => FastifyReply,
): void {
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
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });
}
