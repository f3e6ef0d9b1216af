// The application factory: a Fastify instance that is not listening. The process entry
// point (src/main.ts) owns configuration, listening and signals.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import type { AuthenticatorFactory } from "./auth/authenticator.ts";
import { parseBearer } from "./auth/bearer.ts";
import type { AuthFailure, AuthOutcome } from "./auth/outcome.ts";
import { createStaticTokens } from "./auth/static-tokens.ts";
import { type Config, defaultOpsConfig, type OpsConfig } from "./config.ts";
import { operationHandlers } from "./handlers/index.ts";
import { addAnswerHeaders } from "./http/answer-headers.ts";
import { type Body, problem } from "./http/body.ts";
import { type ConnectionGuard, guardConnections } from "./http/connections.ts";
import { addCors } from "./http/cors.ts";
import { addDraining } from "./http/draining.ts";
import { exactJson } from "./http/exact-json.ts";
import { addOperationRoutes, type Routed, routedOf } from "./http/operation-routes.ts";
import { addOverloadGuard } from "./http/overload.ts";
import { createRateLimits, refusalOf } from "./http/rate-limit.ts";
import { parserErrorResponse, writeRawResponse } from "./http/raw-response.ts";
import { type CallSettings, RequestCall } from "./http/request-call.ts";
import { addRequestEnd } from "./http/request-end.ts";
import {
  checkRequestHead,
  NEUTRAL_CONTENT_TYPE,
  setAsideContentType,
} from "./http/request-head.ts";
import { requestIdFor } from "./http/request-id.ts";
import { logAnswered, logCompleted, OneLinePerRequest } from "./http/request-log.ts";
import { pinoBase, requestLoggers } from "./http/request-logger.ts";
import { type ApiResponse, errorResponse } from "./http/responses.ts";
import { createRootLogger, type LogStream } from "./http/root-logger.ts";
import { answerSerializers, type SerializeAnswer } from "./openapi/answer-serializers.ts";
import { createBackend } from "./openapi/backend.ts";
import { createDecide, openapiRequest, operationIdOf } from "./openapi/decide.ts";
import { documentMethods, documentResponseHeaders } from "./openapi/document.ts";
import { createRoutedHandler } from "./openapi/routed.ts";
import { isThenable } from "./openapi/thenable.ts";
import { createMetrics, measuredStore, requestMetrics } from "./ops/metrics.ts";
import { type PlantStore, StoreUnavailableError } from "./store/store.ts";

/** Largest accepted request body; documented in openapi/plants.yaml (413). */
export const BODY_LIMIT_BYTES = 64 * 1024;
// Long enough for a pool to reconnect after a database restart, short enough to not idle.
const STORE_RETRY_AFTER_SECONDS = 2;

export interface AppOptions {
  store: PlantStore;
  /** Builds the authenticator with the app's logger; the app closes it when it closes. */
  authenticator: AuthenticatorFactory;
  /** Told about every refused authentication (the seam for metrics). */
  onAuthFailure?: (failure: AuthFailure) => void;
  logLevel: Config["logLevel"];
  /** Where log lines go; standard output when absent. */
  logStream?: LogStream;
  /** Operating settings (limits, timeouts, CORS, metrics token); the defaults when absent. */
  ops?: OpsConfig;
  /** PLANTSTORE_PUBLIC_URL: the `servers` URL of the published document; else where it listens. */
  publicUrl?: string | undefined;
  /**
   * Every request through openapi-backend's own `handleRequest`, without the per-operation
   * routes and their shortcuts, and through @fastify/cors's hook even without an Origin header:
   * the reference that test/spec/differential.test.ts holds the shortcuts to. Never set in
   * production.
   */
  referencePipeline?: boolean;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { store, logLevel, logStream, ops = defaultOpsConfig() } = options;
  // Set once the server exists; the parser's refusals wait on it (see connections.ts).
  let connections: ConnectionGuard | undefined;
  const log = createRootLogger(logLevel, logStream);
  const app = Fastify({
    // No logger of Fastify's: with one it times and logs every answer through listeners of
    // its own (src/http/root-logger.ts). `app.log` is set to ours below.
    logger: false,
    logController: new OneLinePerRequest(),
    childLoggerFactory: requestLoggers(
      log,
      logStream === undefined
        ? undefined
        : { write: (line) => logStream.write(line), base: pinoBase() },
    ),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdFor,
    // Fastify's own 503-while-closing body is not the contract's Error shape; see draining.ts.
    return503OnClosing: false,
    trustProxy: trustProxyOption(ops.trustProxy),
    keepAliveTimeout: ops.keepAliveTimeoutMs,
    http: {
      // Node would answer a missing Host with a bare 400; checkRequestHead answers it instead.
      requireHostHeader: false,
      // Slow or stalled requests are answered 408 (by clientErrorHandler), checked this often.
      headersTimeout: ops.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(2_000, ops.headersTimeoutMs / 2),
    },
    requestTimeout: ops.requestTimeoutMs,
    clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket) {
      if (error.code === "ECONNRESET" || socket.destroyed) return;
      const response = parserErrorResponse(error.code);
      this.log.info(
        { status: response.status, code: error.code },
        "request refused by the HTTP parser",
      );
      const write = () => writeRawResponse(socket, response);
      if (connections === undefined) write();
      else connections.afterPendingAnswers(socket, write);
    },
    frameworkErrors: (error, request, reply) => {
      // Fastify skips its completion logging on this path; log the answer here instead.
      logAnswered(request.log, { method: request.method, url: request.url, status: 400 });
      return send(reply, errorResponse(400, `the request target is not valid: ${error.message}`));
    },
  });
  // Fastify's own lines (its listen line, a hook's error) and ours outside a request.
  app.log = log;

  // Before any plugin adds a route: a route keeps the error handler set when it was added, and
  // @fastify/cors adds one (OPTIONS *), whose body errors must get the Error shape too.
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (request.raw.readableAborted) {
      // The client went away mid-request: nobody to answer, and no fault of ours. (Not
      // `destroyed`: Node destroys every request once its body has been read in full.)
      request.log.info({ code: error.code }, "request aborted by the client");
      // Nobody reads it, but even this answer keeps the contract's shape.
      return send(reply, errorResponse(400, "the request was not received in full"));
    }
    const bodyProblem = bodyStageProblem(error);
    try {
      // Fastify refused the body (too large, unparseable Content-Type) before routing: still
      // answer 404/405/401 first, exactly as for any other body problem.
      if (bodyProblem !== undefined) return await handle(request, reply, bodyProblem);
    } catch (handlingError) {
      request.log.error({ err: handlingError }, "request failed");
      return send(reply, internalError(request));
    }
    if (isClientError(error)) {
      return send(reply, errorResponse(error.statusCode ?? 400, error.message));
    }
    if (error instanceof StoreUnavailableError) {
      request.log.warn({ reason: error.message }, "store unavailable");
      return send(reply, storeUnavailable);
    }
    request.log.error({ err: error }, "request failed");
    return send(reply, internalError(request));
  });

  const authenticator = await options.authenticator(app.log);
  app.addHook("onClose", () => authenticator.close());
  // ---- Operating (README "Operating"): metrics, probes, CORS, overload, rate limits ----
  app.server.maxConnections = ops.maxConnections;
  const metrics = createMetrics();
  connections = guardConnections(
    app.server,
    {
      sendTimeoutMs: ops.sendTimeoutMs,
      closeTimeoutMs: ops.closeTimeoutMs,
      maxPerAddress: ops.maxConnectionsPerAddress,
    },
    () => metrics.connectionsDropped.inc(),
  );
  const guard = connections;
  app.addHook("onClose", () => guard.close());
  // Every header line is collected, so that none can hide a repeated Authorization or
  // Content-Type past Node's default of 2000 (checkRequestHead refuses over 200 of them).
  app.server.maxHeadersCount = 0;
  const api = await createBackend({
    authenticator,
    metricsToken: ops.metricsToken === undefined ? undefined : metricsTokenCheck(ops.metricsToken),
    operations: operationHandlers({
      store: measuredStore(store, metrics),
      metrics,
      app,
      publicUrl: options.publicUrl,
      metricsOpen: ops.metricsToken === undefined,
    }),
  });
  // A request that took one of the per-operation routes below is labelled from the route;
  // any other is matched again, as openapi-backend routed it.
  const countRequest = requestMetrics(
    app,
    metrics,
    (request) =>
      routedOf(api, request)?.operation.operationId ??
      operationIdOf(api, request.method, request.url),
  );
  // The first onRequest hook (none is added above), so that every request that reaches the
  // hooks is counted and gets its completion line, whichever later hook answers it.
  addRequestEnd(app, (request, reply, ms) => {
    countRequest(request, reply, ms);
    logCompleted(request, reply, ms);
  });
  const document = api.document;
  await addCors(
    app,
    send,
    ops.corsOrigins,
    {
      methods: documentMethods(document),
      responseHeaders: documentResponseHeaders(document),
    },
    options.referencePipeline !== true,
  );
  addAnswerHeaders(app, addDraining(app, send));
  await addOverloadGuard(app, send, ops.maxEventLoopDelayMs);
  const rateLimits = createRateLimits(ops);
  // ---- end Operating ----

  app.addHook("onRequest", (request, reply, done) => {
    const refusal = checkRequestHead(request);
    if (refusal !== undefined) {
      send(reply, refusal);
      return;
    }
    setAsideContentType(request);
    done();
  });

  // Every body is kept as raw bytes whatever its content type: what it means is decided
  // after routing and authentication, in src/http/body.ts.
  // The neutral type setAsideContentType gives every request is named as well as "*": Fastify
  // caches the parser it finds for a named type, but parses the header anew on every request
  // to fall back to "*".
  app.removeAllContentTypeParsers();
  const keepBytes = (_request: FastifyRequest, body: Buffer, done: (e: null, b: Buffer) => void) =>
    done(null, body);
  app.addContentTypeParser(NEUTRAL_CONTENT_TYPE, { parseAs: "buffer" }, keepBytes);
  app.addContentTypeParser("*", { parseAs: "buffer" }, keepBytes);

  // Every decision comes from openapi-backend: by its own routing (src/openapi/decide.ts), or
  // by its handlers for a request its operation's route matched (src/openapi/routed.ts). A
  // body problem found while receiving is reported only once the request is routed and
  // authenticated.
  const decide = createDecide(api);
  const decideRouted = createRoutedHandler(api);
  const callSettings: CallSettings = { rateLimits, onAuthFailure: options.onAuthFailure };
  // A routed request's JSON answer is written by the serializer compiled for its operation and
  // status, where the schema allows one; any other by the generic walk.
  const serializerFor = answerSerializers(api);
  // Sends the answer, and gives Fastify nothing to wait for once it is sent: the reply only
  // when it is not (Fastify then waits for it to end), never a promise resolving to it, which
  // costs a request a turn of the microtask queue through the reply's own `then`.
  const answer = (
    request: FastifyRequest,
    reply: FastifyReply,
    response: ApiResponse,
    routedTo: Routed | undefined,
  ) => {
    // Announced on what the caller's own requests got (2xx, 4xx), as the YAML documents it.
    const extra = response.status < 500 ? rateLimits.headersFor(request) : undefined;
    const serialize =
      routedTo === undefined ? undefined : serializerFor(routedTo.operation, response.status);
    send(reply, response, extra, serialize);
    return reply.sent ? undefined : reply;
  };
  // Not async: a request whose steps all answered at once is answered at once, and one that
  // waited (for the store, a token lookup) is answered from the promise its handler gave,
  // with no layer of ours around it (BENCHMARKS.md, fifteenth session). A step that throws a
  // RateLimitedError is answered 429 either way; any other error reaches the error handler
  // whether it was thrown or rejected.
  const handle = (
    request: FastifyRequest,
    reply: FastifyReply,
    problem?: Body,
    routedTo?: Routed,
  ): FastifyReply | undefined | Promise<FastifyReply | undefined> => {
    const call = new RequestCall(callSettings, request, reply, problem, routedTo?.params);
    let response: ApiResponse | Promise<ApiResponse>;
    try {
      response = routedTo === undefined ? decide(call) : decideRouted(routedTo.operation, call);
    } catch (error) {
      response = refusalOf(error);
    }
    if (!isThenable(response)) return answer(request, reply, response, routedTo);
    return response.then(
      (settled) => answer(request, reply, settled, routedTo),
      (error: unknown) => answer(request, reply, refusalOf(error), routedTo),
    );
  };

  if (options.referencePipeline !== true) {
    addOperationRoutes(app, api, (request, reply, routed) =>
      handle(request, reply, undefined, routed),
    );
  }

  // OPTIONS * is @fastify/cors's (src/http/cors.ts): it answers preflights and hands every
  // other OPTIONS to the not-found handler below, which routes it like any request.
  app.route({
    method: app.supportedMethods.filter((m) => m !== "OPTIONS"),
    url: "*",
    handler: (request, reply) => handle(request, reply),
  });
  // Methods Fastify has no route for (PURGE, LINK, ...) still get openapi-backend's 404 or 405.
  app.setNotFoundHandler((request, reply) => handle(request, reply));
  // CONNECT never reaches Fastify's routes; answer it from the same decisions.
  app.server.on("connect", (request: IncomingMessage, socket: Duplex) => {
    const noBody = problem(400, "CONNECT has no body");
    const url = request.url ?? "/";
    decide({
      request: openapiRequest("CONNECT", url, request.headers),
      readBody: () => noBody,
    }).then(
      (response) => {
        logAnswered(app.log, { method: "CONNECT", url, status: response.status });
        writeRawResponse(socket, response);
      },
      () => socket.destroy(),
    );
  });

  // Node answers an Expect other than 100-continue with a bare 417 unless someone listens;
  // RFC 9110 §10.1.1 lets a server ignore it, so the request is handled as usual.
  app.server.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) =>
    app.server.emit("request", request, response),
  );

  return app;
}

/** Fastify's trustProxy; a hop count as the function Fastify itself would make of it. */
function trustProxyOption(
  setting: OpsConfig["trustProxy"],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return typeof setting === "boolean" ? setting : [...setting];
}

/**
 * GET /metrics's own token (PLANTSTORE_METRICS_TOKEN), checked like a static token; a caller of
 * its own for the rate limit, whichever static tokens there are.
 */
function metricsTokenCheck(token: string): (authorization: string | undefined) => AuthOutcome {
  const known = createStaticTokens([token], "metrics");
  return (authorization) => {
    const credentials = parseBearer(authorization);
    return credentials.ok ? known(credentials.token) : credentials;
  };
}

/**
 * Sends `response`, with `extra` headers after its own (the caller's rate limit); a JSON body
 * by `serialize` when given (src/openapi/answer-serializers.ts), else by the generic walk.
 */
function send(
  reply: FastifyReply,
  response: ApiResponse,
  extra?: Readonly<Record<string, string>>,
  serialize: SerializeAnswer = exactJson,
): FastifyReply {
  // Written before the reply is touched: if writing throws (a fault of ours), the 500 the error
  // handler sends carries none of this answer's status or headers.
  const { body, contentType } = response;
  const payload = body === undefined || contentType !== undefined ? body : serialize(body);
  reply.code(response.status);
  if (response.headers !== undefined) reply.headers(response.headers);
  if (extra !== undefined) reply.headers(extra);
  if (payload === undefined) return reply.send();
  return reply.type(contentType ?? "application/json; charset=utf-8").send(payload);
}

// Nothing is known to be stored, and a create is idempotent: the client should retry.
const storeUnavailable = errorResponse(503, "the store is unavailable; retry shortly", {
  "retry-after": String(STORE_RETRY_AFTER_SECONDS),
});

const internalError = (request: FastifyRequest): ApiResponse =>
  errorResponse(500, `internal error; quote request id ${request.id}`);

// Only Fastify's own request errors (a bad Content-Length, ...) are the client's fault.
function isClientError(error: FastifyError): boolean {
  const status = error.statusCode ?? 500;
  return error.code?.startsWith("FST_") === true && status >= 400 && status < 500;
}

// Errors Fastify raises while receiving the body, before any route runs.
function bodyStageProblem(error: FastifyError): Body | undefined {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return problem(413, `the request body is larger than ${BODY_LIMIT_BYTES} bytes`);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return problem(415, "the content type must be application/json");
    default:
      return undefined;
  }
}
