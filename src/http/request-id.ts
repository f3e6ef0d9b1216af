// The request id, echoed on every answer and written on the request's log line.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

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
