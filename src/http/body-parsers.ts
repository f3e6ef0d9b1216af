// Fastify's content-type parsers: every body is read as bytes (up to the body limit, 413 past
// it) whatever its declared type, and parseBody (body.ts) says what it is — JSON, nothing, or
// why not (415 for a type its operation does not declare, 400 for bad UTF-8 or JSON). So a
// body of the wrong type that is too large is still a 413, and an empty one still "a request
// body is required", as for JSON. Parsing runs only for an operation that takes a body, once
// its caller is accepted, and so with the media types of its operation (request.bodyMedia).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { parseBody } from "./body.ts";
import { JSON_ONLY } from "./media-types.ts";

export function addBodyParsers(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  const parse = (request: FastifyRequest, raw: Buffer, done: (e: null, b: unknown) => void) =>
    done(null, parseBody(request.headers, raw, request.bodyMedia ?? JSON_ONLY));
  app.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit }, parse);
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit }, parse);
}
