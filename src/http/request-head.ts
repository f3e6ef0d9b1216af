// Checks on a request's head that come before routing, and a workaround that keeps
// Fastify from judging the Content-Type before routing and authentication do.
import type { FastifyRequest } from "fastify";
import { type ApiResponse, errorResponse } from "./responses.ts";

// Headers that must appear at most once: Node keeps the first of several silently, so a
// request carrying two would be read differently by us and by any proxy in front of us.
const SINGLETON_HEADERS = ["authorization", "content-type", "content-length", "host"];

/** A 400 for a head that cannot be read unambiguously, or undefined. */
export function checkRequestHead(request: FastifyRequest): ApiResponse | undefined {
  if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
    return errorResponse(400, "an HTTP/1.1 request needs a Host header");
  }
  const seen = new Set<string>();
  const raw = request.raw.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] ?? "").toLowerCase();
    if (!SINGLETON_HEADERS.includes(name)) continue;
    if (seen.has(name)) return errorResponse(400, `the ${name} header appears more than once`);
    seen.add(name);
  }
  return undefined;
}

// RFC 9110 media-type: type "/" subtype *( OWS ";" OWS [ parameter ] ).
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(
  `^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*"))?)*[ \\t]*$`,
);

const declared = new WeakMap<FastifyRequest, string>();

/**
 * Fastify refuses a Content-Type it cannot parse before any route runs, which would put
 * 415 ahead of 404, 401 and 413. Such a header is set aside and replaced by a neutral
 * one, so the body is received as usual and src/http/body.ts judges the original.
 */
export function setAsideUnparseableContentType(request: FastifyRequest): void {
  const value = request.headers["content-type"];
  if (value === undefined || MEDIA_TYPE.test(value)) return;
  declared.set(request, value);
  request.headers["content-type"] = "application/octet-stream";
}

/** The Content-Type the client sent. */
export const declaredContentType = (request: FastifyRequest): string | undefined =>
  declared.get(request) ?? request.headers["content-type"];
