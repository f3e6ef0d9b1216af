// PLANTSTORE_WORKERS > 1: this process supervises that many server processes sharing one
// port. It serves nothing itself: it forks, restarts a worker that dies while serving, and
// passes shutdown signals on. The workers accept connections from the shared socket
// themselves (SCHED_NONE): with node:cluster's default round robin the supervisor accepts
// each one and hands it over, and a connection handed to a worker that dies before taking it
// stays open in the supervisor with nobody to answer it (seen: over 20 s, until the client
// gave up). Accepting in the workers, a dying worker's connections close with it and the
// ones still queued on the socket go to the others.
import cluster, { type Worker } from "node:cluster";
import { sumWorkerMetrics } from "./ops/worker-metrics.ts";

export interface SupervisorOptions {
  workers: number;
  /** The workers' own graceful-shutdown deadline; the supervisor allows a little more. */
  shutdownTimeoutMs: number;
}

// A worker that dies this often within a minute is not going to get better by restarting.
const MAX_RESTARTS_PER_MINUTE = 10;
const SUPERVISOR_GRACE_MS = 2_000;

/** Marks this supervisor's workers, as opposed to a process another cluster manager forked. */
const SUPERVISED_MARK = "PLANTSTORE_SUPERVISED_WORKER";
const SUPERVISED = { [SUPERVISED_MARK]: "1" };

/** Marks the one worker that delivers webhooks; its replacement gets the mark in its turn. */
const DELIVERS_MARK = "PLANTSTORE_DELIVERING_WORKER";
const DELIVERS = { ...SUPERVISED, [DELIVERS_MARK]: "1" };

/** Whether this process sends webhooks: a lone server, or the one worker marked to. */
export const deliversWebhooks = (): boolean =>
  !isSupervisedWorker() || process.env[DELIVERS_MARK] === "1";

/** True in a worker this supervisor forked (not merely in some node:cluster worker). */
export const isSupervisedWorker = (): boolean =>
  cluster.isWorker && process.env[SUPERVISED_MARK] === "1";

const say = (line: string) => process.stderr.write(`plantstore: ${line}\n`);

export function superviseWorkers({ workers, shutdownTimeoutMs }: SupervisorOptions): void {
  const listening = new WeakSet<Worker>();
  const delivering = new WeakSet<Worker>();
  let restarts: number[] = [];
  let stopping = false;
  let exitCode = 0;

  // A worker can be reported exited before it leaves cluster.workers (exit before disconnect).
  const living = (): Worker[] =>
    Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
  let sent: NodeJS.Signals | undefined;

  const stop = (signal: NodeJS.Signals, code: number) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    sent = signal;
    for (const worker of living()) worker.process.kill(signal);
    setTimeout(() => {
      say("workers did not stop within the shutdown deadline; exiting");
      process.exit(1);
    }, shutdownTimeoutMs + SUPERVISOR_GRACE_MS).unref();
    if (living().length === 0) process.exit(exitCode);
  };

  cluster.on("listening", (worker) => listening.add(worker));
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      // A worker still starting has no handler yet, and the signal itself ends it: that is
      // a clean stop too.
      if (code !== 0 && signal !== sent) exitCode = 1;
      if (living().length === 0) process.exit(exitCode);
      return;
    }
    const how = signal === null ? `code ${code}` : `signal ${signal}`;
    // One that never listened failed at start-up (a port in use, a bad database): the others
    // will too, so the whole service stops, as a single process would.
    if (!listening.has(worker)) {
      say(`worker ${worker.process.pid} exited with ${how} before it served; stopping`);
      stop("SIGTERM", 1);
      return;
    }
    const now = Date.now();
    restarts = [...restarts.filter((at) => now - at < 60_000), now];
    if (restarts.length > MAX_RESTARTS_PER_MINUTE) {
      say(
        `worker ${worker.process.pid} exited with ${how}; too many restarts in a minute, stopping`,
      );
      stop("SIGTERM", 1);
      return;
    }
    say(`worker ${worker.process.pid} exited with ${how}; starting another`);
    if (delivering.has(worker)) delivering.add(cluster.fork(DELIVERS));
    else cluster.fork(SUPERVISED);
  });

  process.on("SIGTERM", () => stop("SIGTERM", 0));
  process.on("SIGINT", () => stop("SIGINT", 0));
  sumWorkerMetrics();
  // Must be set before the first fork.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  say(`starting ${workers} worker processes`);
  // One worker delivers webhooks, so that SQLite has one deliverer (the store serialises
  // claims anyway; this keeps their writes off the others' write threads).
  for (let i = 0; i < workers; i++) {
    const worker = cluster.fork(i === 0 ? DELIVERS : SUPERVISED);
    if (i === 0) delivering.add(worker);
  }
}
