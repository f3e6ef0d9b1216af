// Prometheus metrics (prom-client). Each app has a registry of its own, so tests can build many
// apps; process and event-loop metrics are process-wide by nature and collected once.
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { nameOf } from "../config/settings.ts";
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import { ConstraintViolationError, StoreUnavailableError } from "../store/store.ts";
import type { WriteCounter, WriteObserver } from "../store/writes.ts";

export interface Metrics {
  registry: Registry;
  /** The text GET /metrics answers: this process's metrics, or with workers the service's. */
  text(): Promise<string>;
  authFailures: Counter<"reason">;
  connectionsDropped: Counter;
  /** Times a store write and counts what it changed (the write path's observer). */
  writes: WriteObserver;
}

export const SECONDS_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * How a worker of PLANTSTORE_WORKERS shares its metrics: given the registries it exports and
 * its own text, what makes the text of a scrape (src/ops/worker-metrics.ts).
 */
export type ShareMetrics = (
  registries: () => readonly Registry[],
  localText: () => Promise<string>,
) => () => Promise<string>;

/** `counters`: what the writes count beside their timing (writeCounters, from the tables). */
export function createMetrics(
  share: ShareMetrics | undefined,
  counters: readonly WriteCounter[],
): Metrics {
  const registry = new Registry();
  // The process-wide one is made when first read: collectDefaultMetrics starts for good.
  const registries = () => [processMetrics(), registry];
  const localText = async () => (await Promise.all(registries().map((r) => r.metrics()))).join("");
  const registers = [registry];
  // By write, then outcome, as the table in writes.ts names them: no key is made per write.
  const counted = new Map<string, Map<string, Counter>>();
  for (const { name, help, write, outcome } of counters) {
    const byOutcome = counted.get(write) ?? new Map<string, Counter>();
    byOutcome.set(outcome, new Counter({ name, help, registers }));
    counted.set(write, byOutcome);
  }
  const storeWrites = new Histogram({
    name: "plantstore_store_commit_seconds",
    help: "Time a write takes in the store, commit included, by write and outcome",
    labelNames: ["write", "outcome"],
    buckets: SECONDS_BUCKETS,
    registers,
  });
  return {
    registry,
    // With workers, the supervisor makes the service's text (worker-metrics.ts): one text for
    // every worker, so that no scrape, whichever worker takes it, shows an older one.
    text:
      share === undefined
        ? madeAtMostEvery(METRICS_TEXT_MS, localText)
        : share(registries, localText),
    authFailures: new Counter({
      name: "plantstore_auth_failures_total",
      help: "Requests answered 401, by reason (missing, or the RFC 6750 error code)",
      labelNames: ["reason"],
      registers,
    }),
    connectionsDropped: new Counter({
      name: "plantstore_connections_dropped_total",
      help: `Connections closed on arrival: ${nameOf("ops.maxConnections")} were open, or ${nameOf("ops.maxConnectionsPerAddress")} from its address`,
      registers,
    }),
    writes: {
      settled(write, seconds, outcome) {
        storeWrites.observe({ write, outcome }, seconds);
        counted.get(write)?.get(outcome)?.inc();
      },
      failed(write, seconds, error) {
        storeWrites.observe({ write, outcome: failureOutcome(error) }, seconds);
      },
    },
  };
}

const failureOutcome = (error: unknown): string =>
  error instanceof StoreUnavailableError
    ? "unavailable"
    : error instanceof ConstraintViolationError
      ? "violated"
      : "error";

/** GET /metrics. */
export function metricsHandler(metrics: Metrics): OperationHandler<"getMetrics"> {
  return async (): Answer<"getMetrics"> => ({
    status: 200,
    body: await metrics.text(),
    contentType: metrics.registry.contentType,
  });
}

/** How long a rendering of the metrics is served (documented on GET /metrics). */
export const METRICS_TEXT_MS = 1000;

/**
 * `make`, run at most once per `ms`, its text served to every call in between: a flood of
 * scrapes (which need no token when no metrics token is set, and pass the overload guard)
 * costs a cache read each, not a rendering (2.5–3.7 ms of CPU).
 */
export function madeAtMostEvery(
  ms: number,
  make: () => Promise<string>,
  clock: () => number = () => performance.now(),
): () => Promise<string> {
  let made: { text: Promise<string>; at: number } | undefined;
  return () => {
    const now = clock();
    if (made === undefined || now - made.at >= ms) made = { text: make(), at: now };
    return made.text;
  };
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
