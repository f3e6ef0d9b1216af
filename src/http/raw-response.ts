// Answers written straight to a socket, for requests that never become a Fastify request:
// ones Node's HTTP parser rejects, and CONNECT. The connection is closed after the answer; for
// the parser's refusals, app.ts waits (src/http/connections.ts) until every request received
// before the bad bytes has been answered.
import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { ApiResponse } from "../openapi/responses.ts";
import { SECURITY_HEADERS } from "./answer-headers.ts";

export function writeRawResponse(socket: Duplex, response: ApiResponse): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight?.headersSent === true && !inFlight.writableFinished) {
    // Never write into the middle of another answer.
    socket.destroy();
    return;
  }
  const body = JSON.stringify(response.body);
  const headers = Object.entries({ ...SECURITY_HEADERS, ...response.headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.end(
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\n${headers}` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "Connection: close\r\n\r\n" +
      body,
  );
  // Whatever else the client sends is read and dropped, so that unread bytes do not turn our
  // close into a reset that could discard this answer; src/http/connections.ts destroys the
  // connection if the client does not close its side in time.
  socket.resume();
}
