// npm run bench:webhooks: what the new-plant webhook costs creates, paired as bench:paired
// pairs (pairing.ts: both servers on core 0 at once, load from the last core, CPU from /proc,
// places swapped each round), on SQLite and, with TEST_DATABASE_URL, PostgreSQL.
// - delivering: the service with one endpoint registered, a receiver answering 200 (its own
//   process, on the load's core), against the service with none; then, `--drain` seconds
//   after the load, the deliveries still pending and those received.
// - outbox: the same, the receiver holding every request unanswered, so that the deliverer's
//   slots stay busy and it does next to nothing: the event's write alone.
// - backlog: one endpoint nobody listens at and `--pending` deliveries preloaded (some due
//   now, the rest over the next day), against the same endpoint and none pending; peak RSS.
// - fan-out: 1,000 endpoints registered against one, no deliverer running on either
//   (PLANTSTORE_WEBHOOK_SEND=false): what a create costs, and the bytes of webhook rows it
//   stores, as the number of endpoints grows.
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import { cpus, release, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { loadInTurn, type Measured, type PairLoad } from "./pairing.ts";
import { type BenchServer, startServer } from "./server.ts";
import {
  benchEngines,
  commitOf,
  cores,
  median,
  pinSelf,
  serviceCommand,
  wholeNumber,
  withDeadline,
} from "./service.ts";
import { type ServiceOnStore, startServiceOnStore } from "./service-store.ts";
import {
  insertEndpoint,
  insertEndpoints,
  pendingDeliveries,
  preloadDeliveries,
  storedPlants,
  webhookBytes,
} from "./webhook-store.ts";

const USAGE = `usage: npm run bench:webhooks -- [options]
  --rounds N        rounds of each pair; even, the servers swap places each round (4)
  --duration S      seconds counted per pair (8)
  --warmup S        seconds of load before, not counted (3)
  --connections N   concurrent connections to each server (50)
  --drain S         seconds after the load before the backlog is read (10)
  --pending N       deliveries preloaded for the backlog pair (1000000)
  --engines LIST    sqlite,postgres (sqlite, plus postgres when TEST_DATABASE_URL is set)
  --only LIST       some of delivering,outbox,backlog,fan-out (all four)
  --env NAME=VALUE  a setting for both services, e.g. PLANTSTORE_WEBHOOK_ENDPOINT_CONCURRENCY=32
                    (repeatable)`;

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "4" },
    duration: { type: "string", default: "8" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    drain: { type: "string", default: "10" },
    pending: { type: "string", default: "1000000" },
    engines: { type: "string" },
    only: { type: "string" },
    env: { type: "string", multiple: true, default: [] },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const rounds = wholeNumber("rounds", values.rounds, 2);
if (rounds % 2 === 1) throw new Error("--rounds must be even: the servers swap places each round");
const load: PairLoad = {
  durationSeconds: wholeNumber("duration", values.duration, 1),
  warmupSeconds: wholeNumber("warmup", values.warmup),
  connections: wholeNumber("connections", values.connections, 1),
};
const drainSeconds = wholeNumber("drain", values.drain);
const pending = wholeNumber("pending", values.pending);
const adminUrl = process.env["TEST_DATABASE_URL"];
const engines = benchEngines(values.engines, adminUrl);
const PAIRS = ["delivering", "outbox", "backlog", "fan-out"] as const;
/** Endpoints registered for the fan-out pair's "with" service. */
const FAN_OUT_ENDPOINTS = 1000;
type Pair = (typeof PAIRS)[number];
const pairs = (values.only ?? PAIRS.join(",")).split(",") as Pair[];
if (!pairs.every((pair) => PAIRS.includes(pair))) {
  throw new Error(`--only takes some of ${PAIRS.join(",")}`);
}
if (cores < 2) throw new Error("bench:webhooks needs two cores: one for the servers, one for load");

/** An address nobody listens at: the receiver that is down. */
const DOWN_URL = "http://127.0.0.1:9/plants";
// A round (two servers started, a preload, the load and the drain) that takes longer is stuck.
const ROUND_DEADLINE_MS = 10 * 60_000;
const SERVER_CORE = "0";
const LOAD_CORE = String(cores - 1);
const ours = serviceCommand(".");
const work = mkdtempSync(join(tmpdir(), "plantstore-webhooks-"));
const settings = values.env.map((setting) => setting.split(/=(.*)/s, 2));
if (settings.some((setting) => setting.length !== 2)) throw new Error("--env takes NAME=VALUE");
const WEBHOOK_ENV: Record<string, string> = {
  PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "true",
  ...Object.fromEntries(settings),
};

interface Row {
  engine: string;
  pair: Pair;
  round: number;
  /** The service with the webhook's work, and without. */
  measured: [Measured, Measured];
  rssMb: [number, number];
  /** delivering: plants stored, received at the load's end and after the drain, pending then. */
  delivered?: { plants: number; atEnd: number; after: number; distinct: number; pending: number };
  /** backlog: failed attempts the deliverer made during the round. */
  attempts?: number;
  /** fan-out: bytes of webhook rows stored per plant created, with and without. */
  bytesPerCreate?: [number, number];
}
const rows: Row[] = [];

async function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => resolve(true)).once("error", () => resolve(false));
    socket.setTimeout(1000, () => resolve(false));
  }).finally(() => undefined) as Promise<boolean>;
}

const receiverCount = async (receiver: BenchServer) =>
  (await (await fetch(`${receiver.url}/count`)).json()) as { received: number; distinct: number };

/** A counter's value in the server's GET /metrics, summed over its labels. */
async function counter(server: BenchServer, name: string, label: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith(`${name}{`) && line.includes(label))
      total += Number(line.split(" ").at(-1));
  }
  return total;
}

async function startPair(
  engine: "sqlite" | "postgres",
  prepareWith: Parameters<typeof startServiceOnStore>[0]["prepare"],
  prepareWithout: Parameters<typeof startServiceOnStore>[0]["prepare"],
  env: Record<string, string> = {},
): Promise<[ServiceOnStore, ServiceOnStore]> {
  const spec = (name: string, prepare: typeof prepareWith) => ({
    engine,
    adminUrl,
    work,
    command: ours.command,
    name: `${engine}_${name}`,
    plants: 0,
    cores: SERVER_CORE,
    env: { ...WEBHOOK_ENV, ...env },
    ...(prepare === undefined ? {} : { prepare }),
  });
  const withWork = await startServiceOnStore(spec("with", prepareWith));
  try {
    return [withWork, await startServiceOnStore(spec("without", prepareWithout))];
  } catch (error) {
    await withWork.server.stop();
    throw error;
  }
}

async function stopPair(pair: readonly ServiceOnStore[]): Promise<void> {
  const results = await Promise.allSettled(pair.map(({ server }) => server.stop()));
  for (const result of results) if (result.status === "rejected") throw result.reason;
}

/** delivering (path /plants, answered) or outbox (path /hold, never answered). */
async function receiverRound(
  engine: "sqlite" | "postgres",
  pair: "delivering" | "outbox",
  round: number,
  receiver: BenchServer,
) {
  const receiverUrl = `${receiver.url}/${pair === "delivering" ? "plants" : "hold"}`;
  const [hooked, plain] = await startPair(
    engine,
    async (store) => void (await insertEndpoint(store, receiverUrl)),
    undefined,
  );
  try {
    const before = await receiverCount(receiver);
    const measured = await loadInTurn(
      round,
      { server: hooked.server, stored: [] },
      { server: plain.server, stored: [] },
      "create",
      100_000_000 * round,
      load,
    );
    const atEnd = (await receiverCount(receiver)).received - before.received;
    const plants = await storedPlants(hooked.store);
    await sleep(drainSeconds * 1000);
    const after = await receiverCount(receiver);
    rows.push({
      engine,
      pair,
      round,
      measured,
      rssMb: [hooked.server.peakRss().totalMb, plain.server.peakRss().totalMb],
      delivered: {
        plants,
        atEnd,
        after: after.received - before.received,
        distinct: after.distinct - before.distinct,
        pending: await pendingDeliveries(hooked.store),
      },
    });
  } finally {
    await stopPair([hooked, plain]);
  }
}

async function backlogRound(engine: "sqlite" | "postgres", round: number) {
  const [backlogged, empty] = await startPair(
    engine,
    async (store) => preloadDeliveries(store, await insertEndpoint(store, DOWN_URL), pending),
    async (store) => void (await insertEndpoint(store, DOWN_URL)),
  );
  try {
    const attempts = () =>
      counter(backlogged.server, "plantstore_webhook_attempts_total", 'outcome="retry"');
    const before = await attempts();
    const measured = await loadInTurn(
      round,
      { server: backlogged.server, stored: [] },
      { server: empty.server, stored: [] },
      "create",
      100_000_000 * round,
      load,
    );
    rows.push({
      engine,
      pair: "backlog",
      round,
      measured,
      rssMb: [backlogged.server.peakRss().totalMb, empty.server.peakRss().totalMb],
      attempts: (await attempts()) - before,
    });
  } finally {
    await stopPair([backlogged, empty]);
  }
}

async function fanOutRound(engine: "sqlite" | "postgres", round: number) {
  const [many, one] = await startPair(
    engine,
    async (store) => void (await insertEndpoints(store, DOWN_URL, FAN_OUT_ENDPOINTS)),
    async (store) => void (await insertEndpoint(store, DOWN_URL)),
    { PLANTSTORE_WEBHOOK_SEND: "false" },
  );
  try {
    const measured = await loadInTurn(
      round,
      { server: many.server, stored: [] },
      { server: one.server, stored: [] },
      "create",
      100_000_000 * round,
      load,
    );
    const perCreate = async ({ store }: ServiceOnStore) =>
      (await webhookBytes(store)) / Math.max(1, await storedPlants(store));
    rows.push({
      engine,
      pair: "fan-out",
      round,
      measured,
      rssMb: [many.server.peakRss().totalMb, one.server.peakRss().totalMb],
      bytesPerCreate: [await perCreate(many), await perCreate(one)],
    });
  } finally {
    await stopPair([many, one]);
  }
}

if (await isListening(9)) throw new Error("something listens at 127.0.0.1:9: the receiver 'down'");
pinSelf(true);
let finished = false;
try {
  for (const engine of engines) {
    const toReceiver = pairs.filter((pair) => pair === "delivering" || pair === "outbox");
    if (toReceiver.length > 0) {
      const receiver = await startServer({
        command: [process.execPath, "--import", "tsx", "scripts/bench/webhook-receiver.ts"],
        env: {},
        cores: LOAD_CORE,
        logFile: join(work, "receiver.log"),
      });
      try {
        for (const pair of toReceiver) {
          for (let round = 1; round <= rounds; round++) {
            process.stderr.write(
              `bench:webhooks: ${engine}, ${pair}, round ${round} of ${rounds}\n`,
            );
            await withDeadline(
              receiverRound(engine, pair, round, receiver),
              ROUND_DEADLINE_MS,
              "a round",
            );
          }
        }
      } finally {
        await receiver.stop();
      }
    }
    if (pairs.includes("backlog")) {
      for (let round = 1; round <= rounds; round++) {
        process.stderr.write(`bench:webhooks: ${engine}, backlog, round ${round} of ${rounds}\n`);
        await withDeadline(backlogRound(engine, round), ROUND_DEADLINE_MS, "a round");
      }
    }
    if (pairs.includes("fan-out")) {
      for (let round = 1; round <= rounds; round++) {
        process.stderr.write(`bench:webhooks: ${engine}, fan-out, round ${round} of ${rounds}\n`);
        await withDeadline(fanOutRound(engine, round), ROUND_DEADLINE_MS, "a round");
      }
    }
  }
  finished = true;
} finally {
  if (finished) rmSync(work, { recursive: true, force: true });
  else process.stderr.write(`bench:webhooks: the servers' logs are in ${work}\n`);
}

const out = (line = "") => process.stdout.write(`${line}\n`);
const cell = (m: Measured) =>
  `${Math.round(m.requestsPerSecond)}, ${Math.round(m.cpuMicroseconds)}, ${m.errors}`;
const rate = (row: Row) => row.measured[0].requestsPerSecond / row.measured[1].requestsPerSecond;
const cpu = (row: Row) => row.measured[1].cpuMicroseconds / row.measured[0].cpuMicroseconds;
const range = (xs: number[], digits = 3) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

out();
out(
  `${cores} × ${cpus()[0]?.model ?? "unknown CPU"}, Linux ${release()}, Node ${process.version}; both servers on core ${SERVER_CORE} at once, load and receiver on core ${LOAD_CORE}; ${load.connections} connections to each, ${load.durationSeconds} s counted after ${load.warmupSeconds} s warm-up; service at ${commitOf(ours.root)}${values.env.length > 0 ? `; ${values.env.join(" ")}` : ""}`,
);
out();
out(
  "| engine | pair | round | with: req/s, CPU µs/request, errors | without: req/s, CPU µs/request, errors | req/s ratio | CPU ratio | peak RSS MB with, without | deliveries |",
);
out("|---|---|---:|---|---|---:|---:|---|---|");
for (const row of rows) {
  const d = row.delivered;
  const bytes = row.bytesPerCreate;
  const deliveries =
    d !== undefined
      ? `${d.plants} plants; received ${d.atEnd} at the end, ${d.after} (${d.distinct} distinct) ${drainSeconds} s later; ${d.pending} pending`
      : bytes !== undefined
        ? `${FAN_OUT_ENDPOINTS} endpoints against 1: ${Math.round(bytes[0])} and ${Math.round(bytes[1])} bytes of webhook rows a create`
        : `${pending} preloaded; ${row.attempts} failed attempts`;
  out(
    `| ${row.engine} | ${row.pair} | ${row.round} | ${cell(row.measured[0])} | ${cell(row.measured[1])} | ${rate(row).toFixed(3)} | ${cpu(row).toFixed(3)} | ${Math.round(row.rssMb[0])}, ${Math.round(row.rssMb[1])} | ${deliveries} |`,
  );
}
out();
out("req/s ratio: with ÷ without; CPU ratio: without's CPU a create ÷ with's (1 = no cost).");
for (const engine of engines) {
  for (const pair of pairs) {
    const these = rows.filter((row) => row.engine === engine && row.pair === pair);
    if (these.length === 0) continue;
    const rss = these.map((row) => row.rssMb[0] - row.rssMb[1]);
    let line = `${engine}, ${pair}: req/s ${range(these.map(rate))}, CPU ${range(these.map(cpu))}, peak RSS with − without ${range(rss, 0)} MB`;
    if (pair === "fan-out") {
      const ratios = these.map(
        (row) => (row.bytesPerCreate?.[0] ?? 0) / (row.bytesPerCreate?.[1] ?? 1),
      );
      line += `; bytes a create, ${FAN_OUT_ENDPOINTS} endpoints ÷ 1: ${range(ratios)}`;
    }
    if (pair === "delivering" || pair === "outbox") {
      const left = these.map((row) => row.delivered?.pending ?? 0);
      line += `; pending ${drainSeconds} s after the load: ${left.join(", ")}`;
    }
    out(`${line} (medians of ${these.length})`);
  }
}
for (const row of rows) {
  for (const [at, m] of row.measured.entries()) {
    if (m.errors === 0) continue;
    process.stderr.write(
      `bench:webhooks: ${row.engine}, ${row.pair}, round ${row.round}, ${at === 0 ? "with" : "without"}: ${m.errorKinds}\n`,
    );
    process.exitCode = 1;
  }
}
// A round cut off by its deadline may leave a request open; nothing else is left to wait for.
process.exit();
