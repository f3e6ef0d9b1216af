// Prometheus metrics (prom-client). Each app has a registry of its own, so tests can build many
// apps; process and event-loop metrics are process-wide by nature and collected once.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Registry } from "prom-client";
import { authFailureOf } from "../http/auth-failure.ts";
import type { OperationHandler } from "../openapi/operation-types.ts";
import { type PlantStore, StoreUnavailableError, UnstorableValueError } from "../store/store.ts";
import { LabelledSeries, type Labels } from "./series.ts";

export interface Metrics {
  registry: Registry;
  /** Requests answered, by route, method and status: a counter and a histogram of seconds. */
  requests: LabelledSeries;
  plantsCreated: Counter;
  /** Creates in the store, by outcome: a histogram of seconds. */
  storeCommits: LabelledSeries;
  authFailures: Counter<"reason">;
  connectionsDropped: Counter;
}

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = new LabelledSeries(SECONDS_BUCKETS, requestLabels);
  requests.registerCounter(
    registry,
    "plantstore_http_requests_total",
    "Requests answered, by operation (or unmatched), method and status",
  );
  requests.registerHistogram(
    registry,
    "plantstore_http_request_duration_seconds",
    "Time from receiving a request to answering it",
  );
  // Registered in the order /metrics has always listed them.
  const plantsCreated = new Counter({
    name: "plantstore_plants_created_total",
    help: "Plants stored for the first time (replays and conflicts not counted)",
    registers,
  });
  const storeCommits = new LabelledSeries(SECONDS_BUCKETS, (outcome) => ({ outcome }));
  storeCommits.registerHistogram(
    registry,
    "plantstore_store_commit_seconds",
    "Time a create takes in the store, commit included, by outcome",
  );
  return {
    registry,
    requests,
    storeCommits,
    plantsCreated,
    authFailures: new Counter({
      name: "plantstore_auth_failures_total",
      help: "Requests answered 401, by reason (missing, or the RFC 6750 error code)",
      labelNames: ["reason"],
      registers,
    }),
    connectionsDropped: new Counter({
      name: "plantstore_connections_dropped_total",
      help: "Connections closed on arrival: PLANTSTORE_MAX_CONNECTIONS were open, or PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS from its address",
      registers,
    }),
  };
}

// Neither a method (an HTTP token) nor a status holds a space, so the key reads back from its
// end even when an operationId has spaces.
const requestKey = (route: string, method: string, status: number): string =>
  `${route} ${method} ${status}`;

function requestLabels(key: string): Labels {
  const statusAt = key.lastIndexOf(" ");
  const methodAt = key.lastIndexOf(" ", statusAt - 1);
  return {
    route: key.slice(0, methodAt),
    method: key.slice(methodAt + 1, statusAt),
    status: key.slice(statusAt + 1),
  };
}

/**
 * Counts and times every answered request (called by request-end.ts once it is answered);
 * `operationOf` names its operation, if any.
 */
export function requestMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  operationOf: (request: FastifyRequest) => string | undefined,
): (request: FastifyRequest, reply: FastifyReply, ms: number) => void {
  app.server.on("drop", () => metrics.connectionsDropped.inc());
  return (request, reply, ms) => {
    // Unrouted paths share one label, so no client can grow the series without bound.
    const route = operationOf(request) ?? "unmatched";
    metrics.requests.observe(requestKey(route, request.method, reply.statusCode), ms / 1000);
    const reason = authFailureOf(reply);
    if (reason !== undefined) metrics.authFailures.inc({ reason });
  };
}

/** The store, with every create timed and every new plant counted; the rest as it is. */
export function measuredStore<S extends PlantStore>(store: S, metrics: Metrics): S {
  return {
    ...store,
    // Not async: the store's own promise, continued, is the answer (a layer less per create).
    create(plant) {
      const started = performance.now();
      return store.create(plant).then(
        (result) => {
          observeCommit(metrics, result.kind, started);
          if (result.kind === "created") metrics.plantsCreated.inc();
          return result;
        },
        (error: unknown) => {
          observeCommit(metrics, failureOutcome(error), started);
          throw error;
        },
      );
    },
  };
}

const observeCommit = (metrics: Metrics, outcome: string, started: number): void =>
  metrics.storeCommits.observe(outcome, (performance.now() - started) / 1000);

const failureOutcome = (error: unknown): string =>
  error instanceof StoreUnavailableError
    ? "unavailable"
    : error instanceof UnstorableValueError
      ? "refused"
      : "error";

export function metricsHandler(metrics: Metrics): OperationHandler<"getMetrics"> {
  return async () => ({
    status: 200,
    body: `${await processMetrics().metrics()}${await metrics.registry.metrics()}`,
    contentType: metrics.registry.contentType,
  });
}

let processRegistry: Registry | undefined;

// collectDefaultMetrics starts monitors that are never stopped, so it runs once per process.
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
