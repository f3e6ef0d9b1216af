// What every answer carries, set in one onSend hook: the security headers, the request id, and
// Connection: close while the server drains. One hook for all three rather than one each,
// because Fastify runs every onSend hook as a step of its own on every answer.
import type { FastifyInstance, FastifyReply } from "fastify";
import { echoRequestId } from "./request-id.ts";
import { setSecurityHeaders } from "./security-headers.ts";

export function addAnswerHeaders(
  app: FastifyInstance,
  whileDraining: (reply: FastifyReply) => void,
): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    setSecurityHeaders(reply);
    echoRequestId(request, reply);
    whileDraining(reply);
    done(null, payload);
  });
}
