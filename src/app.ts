// The application factory: a Fastify instance that is not listening. The process entry
// point (src/main.ts) owns configuration, listening and signals.
import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import type { Config } from "./config.ts";
import { createPlantHandler } from "./handlers/create-plant.ts";
import { createTokenVerifier } from "./http/auth.ts";
import { type Body, type BodyProblem, interpretBody } from "./http/body.ts";
import { type ApiResponse, errorResponse } from "./http/responses.ts";
import { createBackend } from "./openapi/backend.ts";
import type { PlantStore } from "./store/store.ts";

/** Largest accepted request body; documented in openapi/plants.yaml (413). */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOptions {
  store: PlantStore;
  tokens: readonly string[];
  logLevel: Config["logLevel"];
}

export async function buildApp({ store, tokens, logLevel }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    // Fastify's own 503-while-closing body is not the contract's Error shape; see onRequest below.
    return503OnClosing: false,
    clientErrorHandler: answerMalformedRequest,
  });

  const api = await createBackend({
    verifier: createTokenVerifier(tokens),
    operations: { createPlant: createPlantHandler(store) },
  });

  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onRequest", async (_request, reply) => {
    if (closing) {
      reply.header("retry-after", "1");
      return send(reply, errorResponse(503, "the server is shutting down; retry shortly"));
    }
  });
  // While draining, every answer closes its connection: a keep-alive client would otherwise
  // hold the server open until the shutdown deadline.
  app.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });

  // Every body is kept as raw bytes whatever its content type: what it means is decided
  // after routing and authentication, in src/http/body.ts.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  // Routing, authentication and validation decisions all come from openapi-backend; a body
  // problem is passed along and reported only once the request is routed and authenticated.
  const handle = async (request: FastifyRequest, reply: FastifyReply, body: Body) => {
    const response: ApiResponse = await api.handleRequest(
      {
        method: request.method,
        path: request.url,
        headers: request.headers as Record<string, string | string[]>,
        body: body.ok ? body.forValidation : undefined,
      },
      { body },
    );
    return send(reply, response);
  };

  app.all("*", (request, reply) =>
    handle(
      request,
      reply,
      interpretBody(request.headers["content-type"], request.body as Buffer | undefined),
    ),
  );

  app.setNotFoundHandler((request, reply) =>
    send(reply, errorResponse(404, `no resource at ${request.method} ${request.url}`)),
  );
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const bodyProblem = bodyStageProblem(error);
    if (bodyProblem !== undefined && !reply.sent) {
      // Fastify refused the body (too large, unparseable Content-Type) before routing: still
      // answer 404/405/401 first, exactly as for any other body problem.
      try {
        return await handle(request, reply, { ok: false, problem: bodyProblem });
      } catch (handlingError) {
        request.log.error({ err: handlingError }, "request failed");
        return send(reply, errorResponse(500, `internal error; quote request id ${request.id}`));
      }
    }
    if (isClientError(error)) {
      return send(reply, errorResponse(error.statusCode ?? 400, error.message));
    }
    request.log.error({ err: error }, "request failed");
    return send(reply, errorResponse(500, `internal error; quote request id ${request.id}`));
  });

  return app;
}

function send(reply: FastifyReply, response: ApiResponse): FastifyReply {
  return reply
    .code(response.status)
    .headers(response.headers ?? {})
    .type("application/json; charset=utf-8")
    .send(response.body);
}

// Only Fastify's own request errors (413, a bad Content-Length, ...) are the client's fault.
function isClientError(error: FastifyError): boolean {
  const status = error.statusCode ?? 500;
  return error.code?.startsWith("FST_") === true && status >= 400 && status < 500;
}

// Errors Fastify raises while receiving the body, before any route runs.
function bodyStageProblem(error: FastifyError): BodyProblem | undefined {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { status: 413, message: `the request body is larger than ${BODY_LIMIT_BYTES} bytes` };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { status: 415, message: "the content type must be application/json" };
    default:
      return undefined;
  }
}

// A request Node's HTTP parser rejects never reaches Fastify's routes; answer it in the
// contract's shape too, then close the connection as the parser state is unknown.
function answerMalformedRequest(error: Error & { code?: string }, socket: Socket): void {
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const message =
    status === 431 ? "the request headers are too large" : "the request is not valid HTTP";
  const body = JSON.stringify({ error: status, message });
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? "Request Header Fields Too Large" : "Bad Request"}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
  } else {
    socket.destroy(error);
  }
}
