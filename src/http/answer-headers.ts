// What every answer carries, set in one onSend hook: the security headers, the request id, and
// Connection: close while the server drains or when the request's body was never read. One
// hook for all, because Fastify runs every onSend hook as a step of its own on every answer.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";
import type { ConnectionGuard } from "./connections.ts";
import type { Draining } from "./gate.ts";

// Headers fit for a JSON API on every answer: no content sniffing, no caching of answers that
// carry plants or errors. Helmet is not used: its defaults are for HTML pages (CSP, frame and
// referrer policies), which a JSON API does not serve.
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

// Banners name the software to an attacker; Node and Fastify send none, and none may be added.
const BANNERS = ["server", "x-powered-by"];

export function addAnswerHeaders(
  app: FastifyInstance,
  draining: Draining,
  connections: ConnectionGuard,
): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    // A route that sets its own (a cacheable document, say) keeps it.
    for (const name in SECURITY_HEADERS) {
      if (!reply.hasHeader(name)) reply.header(name, SECURITY_HEADERS[name] as string);
    }
    for (const name of BANNERS) reply.removeHeader(name);
    reply.header("x-request-id", request.id);
    if (draining.closing()) reply.header("connection", "close");
    // `complete` is false while a body is still on its way (undefined under inject).
    if (request.raw.complete === false) connections.closeAfter(reply);
    done(null, payload);
  });
}

// Short, printable and free of spaces, quotes and commas: safe in a log line and a header, and
// a repeated header (which Node joins with ", ") is never mistaken for one id.
const SANE_REQUEST_ID = /^[A-Za-z0-9._~:@/+=-]{1,128}$/;

/**
 * The request id: the caller's own X-Request-Id when it is sane (so one id follows a request
 * through a proxy, this server and its logs), a fresh UUID otherwise; echoed on every answer.
 */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}
