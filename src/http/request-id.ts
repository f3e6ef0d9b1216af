// The request id: the caller's own X-Request-Id when it is sane (so one id follows a request
// through a proxy, this server and its logs), a fresh UUID otherwise; echoed on every answer.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";

// Short, printable and free of spaces, quotes and commas: safe in a log line and a header, and
// a repeated header (which Node joins with ", ") is never mistaken for one id.
const SANE_REQUEST_ID = /^[A-Za-z0-9._~:@/+=-]{1,128}$/;

export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Sets it on an answer about to be sent (src/http/answer-headers.ts). */
export function echoRequestId(request: FastifyRequest, reply: FastifyReply): void {
  reply.header("x-request-id", request.id);
}
