// What counts as a failed authentication, read from the answer itself (a 401 and its RFC 6750
// challenge), so metrics and the brute-force limit agree whatever scheme decided it.
import type { FastifyReply } from "fastify";

/**
 * For a 401: the challenge's error code (`invalid_token` when credentials were sent and
 * refused), or `missing` when there was none to refuse. Undefined for any other answer.
 */
export function authFailureOf(reply: FastifyReply): string | undefined {
  if (reply.statusCode !== 401) return undefined;
  const challenge = String(reply.getHeader("www-authenticate") ?? "");
  return /error="([a-z_]+)"/.exec(challenge)?.[1] ?? "missing";
}
