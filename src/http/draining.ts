// Behaviour while app.close() drains: late requests get 503, and every answer closes its
// connection so that a keep-alive client cannot hold the server open until the deadline.
import type { FastifyInstance, FastifyReply } from "fastify";
import { Problem } from "./errors.ts";

export interface Draining {
  /** The 503 for a request that arrives while draining, or undefined. */
  refusal(): Problem | undefined;
  /** What an answer about to be sent needs while draining (src/http/answer-headers.ts). */
  onAnswer(reply: FastifyReply): void;
}

export function watchDraining(app: FastifyInstance): Draining {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  const shuttingDown = new Problem(503, "the server is shutting down; retry shortly", {
    "retry-after": "1",
  });
  return {
    refusal: () => (closing ? shuttingDown : undefined),
    onAnswer(reply) {
      if (closing) reply.header("connection", "close");
    },
  };
}
