// The headers every answer carries, set in the answer step: the security headers, the request
// id, and Connection: close while the server drains or when the request's body was never read.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ConnectionGuard } from "./connections.ts";

// Headers fit for a JSON API on every answer: no content sniffing, no caching of answers that
// carry plants or errors. Helmet is not used: its defaults are for HTML pages (CSP, frame and
// referrer policies), which a JSON API does not serve.
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

// Banners name the software to an attacker; Node and Fastify send none, and none may be added.
const BANNERS = ["server", "x-powered-by"];

/** Sets the headers of the answer to `request`, just before it is sent. */
export function setAnswerHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  closing: boolean,
  connections: ConnectionGuard,
): void {
  // A route that sets its own (a cacheable document, say) keeps it.
  for (const name in SECURITY_HEADERS) {
    if (!reply.hasHeader(name)) reply.header(name, SECURITY_HEADERS[name] as string);
  }
  for (const name of BANNERS) reply.removeHeader(name);
  reply.header("x-request-id", request.id);
  if (closing) reply.header("connection", "close");
  // `complete` is false while a body is still on its way (undefined under inject).
  if (request.raw.complete === false) connections.closeAfter(reply);
}
