// PLANTSTORE_WORKERS > 1: one scrape of GET /metrics sees the whole service. The worker that
// takes the scrape asks the supervisor; the supervisor (at most once a second, every scrape in
// between getting that text) asks every worker for its metrics (as prom-client's JSON), sums them with prom-client's AggregatorRegistry.aggregate (counters
// and histograms summed, process metrics each by its own rule: heap summed, event-loop lag
// averaged, ...) and answers. A worker that died stays in the sums as of its last answer, so
// that no counter goes down when the supervisor replaces a worker (Prometheus would read the
// drop as a reset, and the next increase as everything counted since the start).
import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, Gauge, type Registry } from "prom-client";
import { nameOf } from "../config/settings.ts";
import { METRICS_TEXT_MS, madeAtMostEvery } from "./metrics.ts";

type Snapshot = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

type Message =
  /** Worker to supervisor: the whole service's metrics, please. */
  | { type: "plantstore:scrape"; id: number }
  /** Supervisor to worker: the service's metrics, as text. */
  | { type: "plantstore:scraped"; id: number; text: string }
  /** Supervisor to worker: your own metrics, please. */
  | { type: "plantstore:snapshot"; id: number }
  /** Worker to supervisor: its own metrics. */
  | { type: "plantstore:snapshot-taken"; id: number; metrics: Snapshot };

const isMessage = (message: unknown): message is Message =>
  typeof message === "object" &&
  message !== null &&
  typeof (message as { type?: unknown }).type === "string" &&
  (message as { type: string }).type.startsWith("plantstore:");

// A worker busy with requests still answers within this (the overload guard sheds load past
// a second of event-loop lag); one that does not is left out of that scrape, and says so.
const SNAPSHOT_TIMEOUT_MS = 2_000;
const SCRAPE_TIMEOUT_MS = SNAPSHOT_TIMEOUT_MS + 1_000;

/** In the supervisor: answers workers' scrapes with every worker's metrics summed. */
export function sumWorkerMetrics(): void {
  const lastSeen = new Map<number, Snapshot>();
  let retired: Snapshot = [];
  let asked = 0;
  const pending = new Map<number, (worker: Worker, metrics: Snapshot) => void>();

  // Asked once they listen: a worker still starting has nothing to say, and would only make
  // the scrape wait for it.
  const serving = new WeakSet<Worker>();
  cluster.on("listening", (worker) => serving.add(worker));
  const living = (): Worker[] =>
    Object.values(cluster.workers ?? {}).filter(
      (w): w is Worker => w !== undefined && !w.isDead() && w.isConnected(),
    );

  const gather = async (): Promise<string> => {
    const id = ++asked;
    const running = living();
    const workers = running.filter((w) => serving.has(w));
    const answers = new Map<Worker, Snapshot>();
    await new Promise<void>((done) => {
      const timer = setTimeout(done, SNAPSHOT_TIMEOUT_MS);
      pending.set(id, (worker, metrics) => {
        answers.set(worker, metrics);
        if (answers.size === workers.length) {
          clearTimeout(timer);
          done();
        }
      });
      for (const worker of workers) worker.send({ type: "plantstore:snapshot", id });
      if (workers.length === 0) done();
    });
    pending.delete(id);
    await retiring;
    for (const [worker, metrics] of answers) {
      if (!worker.isDead()) lastSeen.set(worker.id, metrics);
    }
    const summed = AggregatorRegistry.aggregate([...answers.values(), retired]);
    const gauge = (name: string, help: string, value: number) =>
      new Gauge({ name, help, registers: [summed] }).set(value);
    gauge("plantstore_workers", `Worker processes running (${nameOf("workers")})`, running.length);
    gauge(
      "plantstore_workers_scraped",
      "Worker processes whose metrics this answer sums; fewer than plantstore_workers when one did not answer in time",
      answers.size,
    );
    return await summed.metrics();
  };

  let retiring = Promise.resolve();
  cluster.on("exit", (worker) => {
    const last = lastSeen.get(worker.id);
    lastSeen.delete(worker.id);
    if (last === undefined) return;
    // Only what accumulates: a dead worker's gauges (heap, lag) describe nothing any more.
    const counts = last.filter((m) => ["counter", "histogram"].includes(String(m.type)));
    retiring = retiring.then(async () => {
      retired = await AggregatorRegistry.aggregate([retired, counts]).getMetricsAsJSON();
    });
  });
  const text = madeAtMostEvery(METRICS_TEXT_MS, gather);
  cluster.on("message", (worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === "plantstore:snapshot-taken") {
      pending.get(message.id)?.(worker, message.metrics);
    } else if (message.type === "plantstore:scrape") {
      void text().then(
        (text) =>
          worker.isConnected() && worker.send({ type: "plantstore:scraped", id: message.id, text }),
        () => undefined,
      );
    }
  });
}

/**
 * In a worker: answers the supervisor with `registries`' metrics, and returns what makes the
 * text of a scrape, every worker's; this worker's own when the supervisor does not answer.
 */
export function workerMetricsText(
  registries: () => readonly Registry[],
  localText: () => Promise<string>,
): () => Promise<string> {
  let asked = 0;
  const waiting = new Map<number, (text: string) => void>();
  process.on("message", (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === "plantstore:snapshot") {
      void Promise.all(registries().map((registry) => registry.getMetricsAsJSON())).then(
        (metrics) =>
          process.send?.({
            type: "plantstore:snapshot-taken",
            id: message.id,
            metrics: metrics.flat(),
          }),
        () => undefined,
      );
    } else if (message.type === "plantstore:scraped") {
      waiting.get(message.id)?.(message.text);
    }
  });
  return async () => {
    const id = ++asked;
    const text = await new Promise<string | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), SCRAPE_TIMEOUT_MS);
      waiting.set(id, (summed) => {
        clearTimeout(timer);
        resolve(summed);
      });
      process.send?.({ type: "plantstore:scrape", id });
    });
    waiting.delete(id);
    if (text !== undefined) return text;
    return `# plantstore: the supervisor did not answer; this is worker ${process.pid}'s metrics only\n${await localText()}`;
  };
}
