// Headers fit for a JSON API on every answer: no content sniffing, no caching of answers that
// carry plants or errors. Helmet is not used: its defaults are for HTML pages (CSP, frame and
// referrer policies), which a JSON API does not serve.
import type { FastifyReply } from "fastify";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

// Banners name the software to an attacker; Node and Fastify send none, and none may be added.
const BANNERS = ["server", "x-powered-by"];

/** Sets them on an answer about to be sent (src/http/answer-headers.ts). */
export function setSecurityHeaders(reply: FastifyReply): void {
  // A route that sets its own (a cacheable document, say) keeps it.
  for (const name in SECURITY_HEADERS) {
    if (!reply.hasHeader(name)) reply.header(name, SECURITY_HEADERS[name] as string);
  }
  for (const name of BANNERS) reply.removeHeader(name);
}
