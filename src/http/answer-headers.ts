// What every answer carries, set in one onSend hook: the security headers, the request id, and
// Connection: close while the server drains or when the request's body was never read. One
// hook for all, because Fastify runs every onSend hook as a step of its own on every answer.
import type { FastifyInstance } from "fastify";
import type { ConnectionGuard } from "./connections.ts";
import type { Draining } from "./draining.ts";
import { echoRequestId } from "./request-id.ts";
import { setSecurityHeaders } from "./security-headers.ts";

export function addAnswerHeaders(
  app: FastifyInstance,
  draining: Draining,
  connections: ConnectionGuard,
): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    setSecurityHeaders(reply);
    echoRequestId(request, reply);
    draining.onAnswer(reply);
    // `complete` is false while a body is still on its way (undefined under inject).
    if (request.raw.complete === false) connections.closeAfter(reply);
    done(null, payload);
  });
}
