// Answers written straight to a socket, for requests that never become a Fastify request:
// ones Node's HTTP parser rejects, and CONNECT. The connection is closed after the answer.
import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { type ApiResponse, errorResponse } from "./responses.ts";
import { SECURITY_HEADERS } from "./security-headers.ts";

export function writeRawResponse(socket: Duplex, response: ApiResponse): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight !== null && inFlight !== undefined && !inFlight.writableFinished) {
    if (inFlight.req.complete) {
      // A request received in full is being answered (its plant may already be stored):
      // let that answer go out first, then refuse what was pipelined behind it.
      inFlight.once("finish", () => writeRawResponse(socket, response));
      return;
    }
    if (inFlight.headersSent) {
      // Never write into the middle of another answer.
      socket.destroy();
      return;
    }
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
}

/** What Node's HTTP parser could not accept, in the contract's shape. */
export function parserErrorResponse(code: string | undefined): ApiResponse {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return errorResponse(431, "the request headers are too large");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return errorResponse(408, "the request took too long to arrive");
    default:
      return errorResponse(400, "the request is not valid HTTP");
  }
}
