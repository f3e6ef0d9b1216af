// Prometheus metrics (prom-client). Each app has a registry of its own, so tests can build many
// apps; process and event-loop metrics are process-wide by nature and collected once.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { authFailureOf } from "../http/auth-failure.ts";
import type { OperationHandler } from "../openapi/operation-types.ts";
import { type PlantStore, StoreUnavailableError, UnstorableValueError } from "../store/store.ts";

type RequestLabel = "route" | "method" | "status";

export interface Metrics {
  registry: Registry;
  requests: Counter<RequestLabel>;
  requestSeconds: Histogram<RequestLabel>;
  plantsCreated: Counter;
  storeCommitSeconds: Histogram<"outcome">;
  authFailures: Counter<"reason">;
  connectionsDropped: Counter;
}

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const labelNames: RequestLabel[] = ["route", "method", "status"];
  return {
    registry,
    requests: new Counter({
      name: "plantstore_http_requests_total",
      help: "Requests answered, by operation (or unmatched), method and status",
      labelNames,
      registers,
    }),
    requestSeconds: new Histogram({
      name: "plantstore_http_request_duration_seconds",
      help: "Time from receiving a request to answering it",
      labelNames,
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    plantsCreated: new Counter({
      name: "plantstore_plants_created_total",
      help: "Plants stored for the first time (replays and conflicts not counted)",
      registers,
    }),
    storeCommitSeconds: new Histogram({
      name: "plantstore_store_commit_seconds",
      help: "Time a create takes in the store, commit included, by outcome",
      labelNames: ["outcome"],
      buckets: SECONDS_BUCKETS,
      registers,
    }),
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

/** Counts and times every answered request; `operationOf` names its operation, if any. */
export function addRequestMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  operationOf: (request: FastifyRequest) => string | undefined,
): void {
  app.addHook("onResponse", (request, reply, done) => {
    const labels = {
      // Unrouted paths share one label, so no client can grow the series without bound.
      route: operationOf(request) ?? "unmatched",
      method: request.method,
      status: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.requestSeconds.observe(labels, reply.elapsedTime / 1000);
    const reason = authFailureOf(reply);
    if (reason !== undefined) metrics.authFailures.inc({ reason });
    done();
  });
  app.server.on("drop", () => metrics.connectionsDropped.inc());
}

/** The store, with every create timed and every new plant counted; the rest as it is. */
export function measuredStore<S extends PlantStore>(store: S, metrics: Metrics): S {
  return {
    ...store,
    async create(plant) {
      const done = metrics.storeCommitSeconds.startTimer();
      try {
        const result = await store.create(plant);
        done({ outcome: result.kind });
        if (result.kind === "created") metrics.plantsCreated.inc();
        return result;
      } catch (error) {
        done({ outcome: failureOutcome(error) });
        throw error;
      }
    },
  };
}

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
