// The application factory: a Fastify instance that is not listening. The process entry point
// (src/main.ts) owns configuration, listening and signals.
//
// Every request takes one path, in the order src/http/runner.ts writes: admit → route →
// authenticate → limit → scopes → body → inputs → handler → answer; every failure on the way
// leaves through src/http/errors.ts.
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import Fastify, { type FastifyHttpOptions, type FastifyInstance } from "fastify";
import type { Document } from "openapi-backend";
import { type AuthenticatorFactory, securitySchemes } from "./auth/authenticator.ts";
import type { AuthFailure } from "./auth/outcome.ts";
import { type Config, defaultOpsConfig, type OpsConfig } from "./config/config.ts";
import { operationHandlers } from "./handlers/index.ts";
import { createAdmission } from "./http/admission.ts";
import { type ConnectionGuard, guardConnections } from "./http/connections.ts";
import { addCors } from "./http/cors.ts";
import { Problem, parserErrorAnswer, problemAnswer, sendError } from "./http/errors.ts";
import { compileOperations } from "./http/operation-steps.ts";
import { createRateLimits } from "./http/rate-limits.ts";
import { writeRawResponse } from "./http/raw-response.ts";
import { requestIdFor } from "./http/request-id.ts";
import { createLogger, type LogStream, OneLinePerRequest } from "./http/request-log.ts";
import { createRequestMetrics } from "./http/request-metrics.ts";
import { routingRefusal } from "./http/routing.ts";
import { runRequests } from "./http/runner.ts";
import { type Api, createApi } from "./openapi/backend.ts";
import { documentMethods, documentResponseHeaders } from "./openapi/document.ts";
import { createMetrics, type Metrics, type ShareMetrics } from "./ops/metrics.ts";
import type { Store } from "./store/store.ts";
import { writeCounters } from "./store/writes.ts";
import { type Deliverer, type DelivererSettings, startDeliverer } from "./webhooks/deliverer.ts";

/** Largest accepted request body; documented in openapi/plants.yaml (413). */
export const BODY_LIMIT_BYTES = 64 * 1024;
// Longer than any request line the 16 KiB head allows: a long path parameter is the
// operation's to refuse (400), not the router's.
const MAX_PARAM_LENGTH = 16 * 1024;

export interface AppOptions {
  store: Store;
  /** Builds the authenticator with the app's logger; the app closes it when it closes. */
  authenticator: AuthenticatorFactory;
  /** Told about every refused authentication. */
  onAuthFailure?: (failure: AuthFailure) => void;
  logLevel: Config["logLevel"];
  /** Where log lines go; standard output when absent. */
  logStream?: LogStream;
  /** Operating settings (limits, timeouts, CORS, metrics token); the defaults when absent. */
  ops?: OpsConfig;
  /** PLANTSTORE_PUBLIC_URL: the `servers` URL of the published document; else where it listens. */
  publicUrl?: string | undefined;
  /** PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: receivers on http:// and private addresses; false if absent. */
  allowPrivateWebhooks?: boolean;
  /** This app's process sends webhooks, with these settings; none when absent. */
  deliverWebhooks?: DelivererSettings | undefined;
  /** A worker of PLANTSTORE_WORKERS: how GET /metrics answers for every worker. */
  shareMetrics?: ShareMetrics | undefined;
  /** A document of the tests' own, compiled now; openapi/plants.yaml as built when absent. */
  definition?: Document | undefined;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { store, ops = defaultOpsConfig() } = options;
  // Set once the server exists; the parser's refusals wait on it (see connections.ts).
  let connections: ConnectionGuard | undefined;
  const app = Fastify(
    fastifyOptions(options, ops, (socket, write) =>
      connections === undefined ? write() : connections.afterPendingAnswers(socket, write),
    ),
  );
  app.setErrorHandler((error, request, reply) =>
    sendError(error, request, reply, BODY_LIMIT_BYTES),
  );
  const authenticator = await options.authenticator(app.log);
  app.addHook("onClose", () => authenticator.close());
  const api = await createApi(options.definition);
  const metrics = createMetrics(options.shareMetrics, writeCounters(api.data.tables));
  app.addHook("onClose", store.observeWrites(metrics.writes));
  deliverWebhooks(app, store, metrics, options.deliverWebhooks);
  const guard = guardServer(app, ops, metrics);
  connections = guard;

  await addCors(app, ops.corsOrigins, {
    methods: documentMethods(api.document),
    responseHeaders: documentResponseHeaders(api.document),
  });
  // With origins configured, @fastify/cors adds an onRequest hook of its own, before the runner's.
  const operations = compileOperations({
    api,
    handlers: operationHandlers(
      {
        store,
        metrics,
        allowPrivateWebhooks: options.allowPrivateWebhooks ?? false,
        maxWebhookEndpoints: ops.maxWebhookEndpoints,
        app,
        publicUrl: options.publicUrl,
        metricsOpen: ops.metricsToken === undefined,
        published: ops.published,
      },
      api.data,
    ),
    schemes: securitySchemes(authenticator, ops.metricsToken),
  });
  runRequests(app, {
    api,
    operations,
    admission: await createAdmission(app, {
      corsOrigins: ops.corsOrigins,
      maxEventLoopDelayMs: ops.maxEventLoopDelayMs,
    }),
    connections: guard,
    rateLimits: createRateLimits(ops),
    onAuthFailure: options.onAuthFailure,
    metrics: createRequestMetrics(app.server, metrics),
    bodyLimit: BODY_LIMIT_BYTES,
  });
  answerOutsideRoutes(app, api);
  return app;
}

/** Fastify's options: limits, deadlines, and the answers of Node's parser and Fastify's router. */
function fastifyOptions(
  options: AppOptions,
  ops: OpsConfig,
  afterPendingAnswers: (socket: Duplex, write: () => void) => void,
): FastifyHttpOptions<Server> {
  return {
    loggerInstance: createLogger(options.logLevel, options.logStream),
    logController: new OneLinePerRequest(),
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    genReqId: requestIdFor,
    // Fastify's own 503-while-closing body is not the contract's Error shape; see admission.ts.
    return503OnClosing: false,
    trustProxy: trustProxyOption(ops.trustProxy),
    keepAliveTimeout: ops.keepAliveTimeoutMs,
    http: {
      // Node would answer a missing Host with a bare 400; admission (admission.ts) answers it instead.
      requireHostHeader: false,
      // Slow or stalled requests are answered 408 (by clientErrorHandler), checked this often.
      headersTimeout: ops.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(2_000, ops.headersTimeoutMs / 2),
    },
    requestTimeout: ops.requestTimeoutMs,
    clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket) {
      if (error.code === "ECONNRESET" || socket.destroyed) return;
      const answer = parserErrorAnswer(error.code);
      this.log.info(
        { status: answer.status, code: error.code },
        "request refused by the HTTP parser",
      );
      afterPendingAnswers(socket, () => writeRawResponse(socket, answer));
    },
    frameworkErrors: (error, request, reply) =>
      sendError(
        new Problem(400, `the request target is not valid: ${error.message}`),
        request,
        reply,
        BODY_LIMIT_BYTES,
      ),
  };
}

/** The deliverer, when this process sends webhooks: started once the app is ready. */
function deliverWebhooks(
  app: FastifyInstance,
  store: Store,
  metrics: Metrics,
  settings: DelivererSettings | undefined,
): void {
  if (settings === undefined) return;
  let deliverer: Deliverer | undefined;
  app.addHook("onReady", async () => {
    deliverer = startDeliverer({
      store: store.webhooks,
      settings,
      log: app.log,
      registry: metrics.registry,
    });
  });
  // Stopped (claims given back) before the store closes.
  app.addHook("onClose", async () => deliverer?.stop());
}

/** The server's connection limits and the guard of every connection's phases. */
function guardServer(app: FastifyInstance, ops: OpsConfig, metrics: Metrics): ConnectionGuard {
  app.server.maxConnections = ops.maxConnections;
  // Every header line is collected, so that none can hide a repeated Authorization or
  // Content-Type past Node's default of 2000 (admission refuses over 200 of them).
  app.server.maxHeadersCount = 0;
  const guard = guardConnections(
    app.server,
    {
      sendTimeoutMs: ops.sendTimeoutMs,
      closeTimeoutMs: ops.closeTimeoutMs,
      maxPerAddress: ops.maxConnectionsPerAddress,
    },
    () => metrics.connectionsDropped.inc(),
  );
  app.addHook("onClose", () => guard.close());
  return guard;
}

/** What Node's server would answer itself, answered as the contract says. */
function answerOutsideRoutes(app: FastifyInstance, api: Api): void {
  // CONNECT never reaches Fastify's routes; answered as any request no operation takes.
  app.server.on("connect", (request, socket) => {
    const answer = problemAnswer(routingRefusal(api, "CONNECT", request.url ?? "/"));
    app.log.info({ method: "CONNECT", status: answer.status }, "request completed");
    writeRawResponse(socket, answer);
  });
  // A client that waits for `100 Continue` is invited by its route, once it is accepted.
  app.server.on("checkContinue", (request, response) =>
    app.server.emit("request", request, response),
  );
  // Node answers an Expect other than 100-continue with a bare 417 unless someone listens;
  // RFC 9110 §10.1.1 lets a server ignore it, so the request is handled as usual.
  app.server.on("checkExpectation", (request, response) =>
    app.server.emit("request", request, response),
  );
}

/** Fastify's trustProxy; a hop count as the function Fastify itself would make of it. */
function trustProxyOption(
  setting: OpsConfig["trustProxy"],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return typeof setting === "boolean" ? setting : [...setting];
}
