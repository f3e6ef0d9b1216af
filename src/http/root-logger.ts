// The process's pino logger, made here rather than by Fastify. Given a logger, Fastify adds
// and removes a `finish` and an `error` listener and a closure on every answer, to time it and
// write its completion line; without them a create took about 1% less CPU and a GET about 4%
// (BENCHMARKS.md, twentieth session). So Fastify runs without one (`logger: false`): the app
// sets `app.log` to this logger, the request loggers are its children (request-logger.ts), and
// the completion line is written by request-end.ts.
import pino, { type Logger } from "pino";

/** Where lines go; standard output when absent. */
export interface LogStream {
  write(line: string): void;
}

// What Fastify gives its own pino logger, so that a line that logs a request, an answer or an
// error reads as it did when Fastify made the logger.
const serializers = {
  req: (request: {
    method?: string;
    url?: string;
    headers?: Record<string, unknown>;
    host?: string;
    ip?: string;
    socket?: { remotePort?: number };
  }) => ({
    method: request.method,
    url: request.url,
    version: request.headers?.["accept-version"],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
  res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
  err: pino.stdSerializers.err,
};

export function createRootLogger(level: string, stream: LogStream | undefined): Logger {
  return stream === undefined ? pino({ level, serializers }) : pino({ level, serializers }, stream);
}
