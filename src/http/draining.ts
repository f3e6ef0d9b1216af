// Behaviour while app.close() drains: late requests get 503, and every answer closes its
// connection so that a keep-alive client cannot hold the server open until the deadline.
import type { FastifyInstance, FastifyReply } from "fastify";
import { Problem } from "./errors.ts";

/** Returns what an answer about to be sent needs while draining (src/http/answer-headers.ts). */
export function addDraining(app: FastifyInstance): (reply: FastifyReply) => void {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  // Hooks on every request take Fastify's callback form: no promise per hook and request.
  app.addHook("onRequest", (_request, _reply, done) => {
    if (!closing) return done();
    done(new Problem(503, "the server is shutting down; retry shortly", { "retry-after": "1" }));
  });
  return (reply) => {
    if (closing) reply.header("connection", "close");
  };
}
