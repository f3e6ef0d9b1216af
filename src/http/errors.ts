// The one error path: whatever refuses or fails a request — a hook, a content-type parser, a
// handler, the store, Fastify itself, Node's HTTP parser — ends here, and leaves as the
// contract's Error body { error, message } with the status as `error`. A 5xx says nothing
// internal; its log line carries the request id and the cause.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { type ApiResponse, type ErrorAnswer, errorResponse } from "../openapi/responses.ts";
import { ConstraintViolationError, StoreUnavailableError } from "../store/store.ts";
import { JSON_ONLY, matchContentType } from "./media-types.ts";

/** A refusal: thrown (or passed to `done`) by any step, answered as it says. */
export class Problem extends Error {
  override name = "Problem";
  constructor(
    readonly status: number,
    message: string,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

/** The answer as a Problem, to throw. */
export const refusal = (answer: ErrorAnswer): Problem =>
  new Problem(answer.status, answer.body.message, answer.headers);

// Long enough for a pool to reconnect after a database restart, short enough to not idle.
const STORE_RETRY_AFTER_SECONDS = 2;

/** What is logged for a failure, and at which level; nothing for a plain refusal. */
interface Logged {
  level: "info" | "warn" | "error";
  fields: Record<string, unknown>;
  message: string;
}

/** A Problem's answer. */
export const problemAnswer = (problem: Problem): ApiResponse =>
  problem.headers === undefined
    ? errorResponse(problem.status, problem.message)
    : errorResponse(problem.status, problem.message, problem.headers);

/** The Error answer for `error`, and what to log about it. */
export function answerFor(
  error: unknown,
  request: FastifyRequest,
  bodyLimit: number,
): { answer: ApiResponse; logged?: Logged } {
  if (error instanceof Problem) return { answer: problemAnswer(error) };
  // A rule of the schema (a foreign key, a check) refused this write alone.
  if (error instanceof ConstraintViolationError) {
    return { answer: errorResponse(409, error.message) };
  }
  if (request.raw.readableAborted) {
    // The client went away mid-request: nobody to answer, and no fault of ours.
    return {
      answer: errorResponse(400, "the request was not received in full"),
      logged: {
        level: "info",
        fields: { code: codeOf(error) },
        message: "request aborted by the client",
      },
    };
  }
  if (error instanceof StoreUnavailableError) {
    return {
      // Nothing is known to be stored, and writes are idempotent: the client should retry.
      answer: errorResponse(503, "the store is unavailable; retry shortly", {
        "retry-after": String(STORE_RETRY_AFTER_SECONDS),
      }),
      logged: { level: "warn", fields: { reason: error.message }, message: "store unavailable" },
    };
  }
  const framework = frameworkAnswer(error as FastifyError, request, bodyLimit);
  if (framework !== undefined) return { answer: framework };
  return {
    answer: errorResponse(500, `internal error; quote request id ${request.id}`),
    logged: { level: "error", fields: { err: error }, message: "request failed" },
  };
}

/** Fastify's own refusals of a request (body too large, bad Content-Type, ...). */
function frameworkAnswer(
  error: FastifyError,
  request: FastifyRequest,
  bodyLimit: number,
): ApiResponse | undefined {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return errorResponse(413, `the request body is larger than ${bodyLimit} bytes`);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE": {
      // A Content-Type Fastify cannot read at all: said as the body's own check says it.
      const accepted = request.bodyMedia ?? JSON_ONLY;
      const problem = matchContentType(request.headers["content-type"], accepted);
      return errorResponse(
        415,
        typeof problem === "string" ? `the content type must be ${accepted.said}` : problem.message,
      );
    }
    default: {
      const status = error.statusCode ?? 500;
      const ours = error.code?.startsWith("FST_") === true && status >= 400 && status < 500;
      return ours ? errorResponse(status, error.message) : undefined;
    }
  }
}

/** Sends the Error answer for `error` and logs what it says to. */
export function sendError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  bodyLimit: number,
): FastifyReply {
  const { answer, logged } = answerFor(error, request, bodyLimit);
  if (logged !== undefined) request.log[logged.level](logged.fields, logged.message);
  if (answer.status >= 500) {
    // A caller's limit is announced on what its own requests got, never on a fault of ours.
    reply.removeHeader("ratelimit-policy");
    reply.removeHeader("ratelimit");
  }
  reply.code(answer.status);
  if (answer.headers !== undefined) reply.headers(answer.headers);
  return reply.type("application/json; charset=utf-8").send(answer.body);
}

/** What Node's HTTP parser could not accept, in the contract's shape. */
export function parserErrorAnswer(code: string | undefined): ApiResponse {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return errorResponse(431, "the request headers are too large");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return errorResponse(408, "the request took too long to arrive");
    default:
      return errorResponse(400, "the request is not valid HTTP");
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
