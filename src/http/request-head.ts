// Checks on a request's head that come before routing, and a workaround that keeps
// Fastify from judging the Content-Type before routing and authentication do.
import type { FastifyRequest } from "fastify";
import { requestSlot } from "./request-slot.ts";
import { type ApiResponse, errorResponse } from "./responses.ts";

// Headers that must appear at most once: Node keeps the first of several silently, so a
// request carrying two would be read differently by us and by any proxy in front of us.
const SINGLETON_HEADERS = new Set(["authorization", "content-type", "content-length", "host"]);
const SINGLETON_LENGTHS = new Set([...SINGLETON_HEADERS].map((name) => name.length));

/**
 * Most header lines a request may carry. Node would stop collecting them at 2000 and a
 * second Authorization after that would go unseen, so every line is collected (the 16 KiB
 * head limit bounds them) and a head with more than this many is refused.
 */
export const MAX_HEADER_LINES = 200;

/** A 400 or 431 for a head that cannot be read unambiguously, or undefined. */
export function checkRequestHead(request: FastifyRequest): ApiResponse | undefined {
  const raw = request.raw.rawHeaders;
  if (raw.length / 2 > MAX_HEADER_LINES) {
    return errorResponse(431, `the request has more than ${MAX_HEADER_LINES} header lines`);
  }
  if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
    return errorResponse(400, "an HTTP/1.1 request needs a Host header");
  }
  let seen: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const given = raw[i] ?? "";
    // Only a name as long as one of them can be one: most lines are not lower-cased at all.
    if (!SINGLETON_LENGTHS.has(given.length)) continue;
    // Most clients send these names lower-case already.
    const name = SINGLETON_HEADERS.has(given) ? given : given.toLowerCase();
    if (!SINGLETON_HEADERS.has(name)) continue;
    seen ??= [];
    if (seen.includes(name)) return errorResponse(400, `the ${name} header appears more than once`);
    seen.push(name);
  }
  return undefined;
}

const declared = requestSlot<string | undefined>("declared content type");
// What Fastify sees instead: one fixed value, so its own parsing never meets client text.
export const NEUTRAL_CONTENT_TYPE = "application/octet-stream";

/**
 * Fastify parses the Content-Type before any route runs and refuses one it cannot read,
 * which would put 415 ahead of 404, 401 and 413 (and run its parser on text no client
 * should be able to make us work on before authenticating). The header is set aside and
 * replaced by a neutral one, so the body is received as bytes and src/http/body.ts judges
 * the original once the caller is authenticated. A missing one stays missing for body.ts,
 * but Fastify sees the neutral one, so a body-carrying method without it (QUERY) is routed
 * like any other request instead of being refused first.
 */
export function setAsideContentType(request: FastifyRequest): void {
  declared.set(request, request.headers["content-type"]);
  request.headers["content-type"] = NEUTRAL_CONTENT_TYPE;
}

/** The Content-Type the client sent, if any. */
export const declaredContentType = (request: FastifyRequest): string | undefined =>
  declared.has(request) ? declared.get(request) : request.headers["content-type"];
