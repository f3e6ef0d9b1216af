// Checks on a request's head that come before routing: a head that cannot be read one way
// only is refused, whatever it asks for.
import type { FastifyRequest } from "fastify";
import { Problem } from "./errors.ts";
import { targetProblem } from "./request-target.ts";

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
export function headProblem(request: FastifyRequest): Problem | undefined {
  const raw = request.raw.rawHeaders;
  if (raw.length / 2 > MAX_HEADER_LINES) {
    return new Problem(431, `the request has more than ${MAX_HEADER_LINES} header lines`);
  }
  if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
    return new Problem(400, "an HTTP/1.1 request needs a Host header");
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
    if (seen.includes(name)) return new Problem(400, `the ${name} header appears more than once`);
    seen.push(name);
  }
  const target = targetProblem(request.url);
  return target === undefined ? undefined : new Problem(400, target);
}
