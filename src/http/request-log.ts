// The process's log: pino, as Fastify's logger, with one JSON line per answered request in place
// of Fastify's two, written asynchronously to standard output in whole lines. A line never holds
// a credential, a body, a query value, a fragment or userinfo (src/text/request-target.ts).
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import pino from "pino";
import { loggedTarget } from "../text/request-target.ts";

/** Where lines go instead of standard output (tests). */
export interface LogStream {
  write(line: string): void;
}

/** PIPE_BUF on Linux: a write to a pipe of at most this many bytes is never cut into. */
const PIPE_BUF = 4096;
// Lines waiting for a stalled standard output, at most; later ones are dropped.
const MAX_WAITING_BYTES = 16 * 1024 * 1024;
// A quiet server's lines wait at most this long for a write's worth to gather.
const FLUSH_INTERVAL_MS = 250;

export function createLogger(level: string, stream?: LogStream): FastifyBaseLogger {
  if (stream !== undefined) return pino({ level }, stream);
  // Asynchronous writes of whole lines, gathered to PIPE_BUF and never more: a cluster's
  // workers share the pipe, and their lines never cut into each other's; a write per line
  // instead cost several percent of a request. A stalled or closed standard output neither
  // stops nor stalls the service: lines beyond the bound, or after EPIPE, are dropped.
  const destination = pino.destination({
    dest: 1,
    sync: false,
    // sonic-boom writes once this much has gathered (it must be below maxWrite).
    minLength: PIPE_BUF - 1024,
    maxWrite: PIPE_BUF,
    maxLength: MAX_WAITING_BYTES,
  });
  destination.on("error", () => undefined);
  setInterval(() => destination.flush(), FLUSH_INTERVAL_MS).unref();
  return pino({ level }, destination);
}

/** Fastify's request lines, as this service writes them: none when a request comes in, one
 * when it has been answered. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      url: loggedTarget(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    // An error here is the response's own (the socket failed while writing it).
    if (error) reply.log.warn({ ...line, err: error }, "request completed");
    else reply.log.info(line, "request completed");
  }
}
