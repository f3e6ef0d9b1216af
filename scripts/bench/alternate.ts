// npm run bench:alternate -- --service DIR: this checkout's service and DIR's, each alone, one
// after the other, creates on SQLite, for what bench:paired cannot show: req/s and p99 (a
// pair shares one core, so its req/s and latency are each other's), and the service on both
// cores (with the load; the scheduler places them), where its SQLite write thread can run
// beside the event loop. Each run gets a new file. The two take turns going first, and the
// machine's drift shows in the count of rounds each was ahead.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, release, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { drive, type LoadResult } from "./load.ts";
import { startServer } from "./server.ts";
import {
  commitOf,
  cores,
  median,
  pinSelf,
  serviceCommand,
  serviceEnv,
  TOKEN,
  wholeNumber,
} from "./service.ts";

const USAGE = `usage: npm run bench:alternate -- --service DIR [options]
  --service DIR     the other checkout (its node_modules installed)
  --rounds N        rounds, each one run of each service per placement; even, since the two
                    take turns going first (6)
  --placements LIST one (server on core 0, load on the last core), both (server and load left
                    to the scheduler), or both of them: one,both (one,both)
  --duration S      seconds counted per run (10)
  --warmup S        seconds of creates before, not counted (3)
  --connections N   concurrent connections (50)`;

const { values } = parseArgs({
  options: {
    service: { type: "string" },
    rounds: { type: "string", default: "6" },
    placements: { type: "string", default: "one,both" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    help: { type: "boolean", default: false },
  },
});
if (values.help || values.service === undefined) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(values.help ? 0 : 2);
}
const rounds = wholeNumber("rounds", values.rounds, 2);
if (rounds % 2 === 1) throw new Error("--rounds must be even: the two take turns going first");
const durationSeconds = wholeNumber("duration", values.duration, 1);
const warmupSeconds = wholeNumber("warmup", values.warmup);
const connections = wholeNumber("connections", values.connections, 1);
const placements = [...new Set(values.placements.split(","))];
for (const placement of placements) {
  if (placement !== "one" && placement !== "both") {
    throw new Error(`--placements takes one and both, got ${placement}`);
  }
}
if (cores < 2) throw new Error("bench:alternate needs two cores: one for the server, one for load");

const services = [serviceCommand("."), serviceCommand(values.service)] as const;
const names = [
  `this checkout (${commitOf(".")})`,
  `${values.service} (${commitOf(values.service)})`,
];
const work = mkdtempSync(join(tmpdir(), "plantstore-alternate-"));

interface Run {
  requestsPerSecond: number;
  p99Ms: number;
  cpuMicroseconds: number;
}

/** One run alone, on a new file in the work directory (deleted after it, unless it failed). */
async function runAlone(at: 0 | 1, placement: string, run: number): Promise<Run> {
  const pinned = placement === "one";
  pinSelf(pinned);
  const file = join(work, `run-${run}.db`);
  const server = await startServer({
    command: services[at].command,
    env: serviceEnv(`sqlite:${file}`),
    cores: pinned ? "0" : undefined,
    logFile: join(work, `run-${run}.log`),
  });
  let result: LoadResult;
  let cpu: number;
  try {
    const load = { url: server.url, token: TOKEN, connections, operation: "create" as const };
    const warm =
      warmupSeconds > 0
        ? await drive({ ...load, durationSeconds: warmupSeconds, firstId: 0 })
        : undefined;
    const before = server.cpuSeconds();
    result = await drive({ ...load, durationSeconds, firstId: warm?.sent ?? 0 });
    cpu = server.cpuSeconds() - before;
    const errors = `${warm?.errorKinds ?? ""} ${result.errorKinds}`.trim();
    if (errors !== "") throw new Error(`run ${run}, ${names[at]}, ${placement}: ${errors}`);
  } finally {
    await server.stop();
  }
  for (const path of [file, `${file}-wal`, `${file}-shm`, join(work, `run-${run}.log`)]) {
    rmSync(path, { force: true });
  }
  return {
    requestsPerSecond: result.requestsPerSecond,
    p99Ms: result.p99Ms,
    cpuMicroseconds: (cpu * 1e6) / Math.max(1, result.answered),
  };
}

process.stdout.write(
  `\n${cores} × ${cpus()[0]?.model ?? "unknown CPU"}, Linux ${release()}, Node ${process.version}; SQLite creates, ${connections} connections, ${durationSeconds} s counted after ${warmupSeconds} s warm-up, a new file each run\n\n`,
);
process.stdout.write(
  `| round | placement | ${names[0]}: req/s, p99 ms, CPU µs/create | ${names[1]}: the same |\n|---:|---|---|---|\n`,
);
const runs = new Map<string, [Run[], Run[]]>(placements.map((p) => [p, [[], []]]));
let count = 0;
try {
  for (let round = 1; round <= rounds; round++) {
    for (const placement of placements) {
      const pair: Run[] = [];
      // Each goes first every other round, so over each two rounds a machine that speeds up
      // or slows down favours neither.
      for (const at of round % 2 === 1 ? ([0, 1] as const) : ([1, 0] as const)) {
        const run = await runAlone(at, placement, ++count);
        pair[at] = run;
        runs.get(placement)?.[at].push(run);
      }
      const cell = (run: Run | undefined) =>
        `${Math.round(run?.requestsPerSecond ?? 0)}, ${run?.p99Ms}, ${Math.round(run?.cpuMicroseconds ?? 0)}`;
      process.stdout.write(`| ${round} | ${placement} | ${cell(pair[0])} | ${cell(pair[1])} |\n`);
    }
  }
  rmSync(work, { recursive: true, force: true });
} catch (error) {
  // The failed run's file and server log stay, for its error to be read against.
  process.stderr.write(`bench:alternate: the failed run's file and log are in ${work}\n`);
  throw error;
}

process.stdout.write("\n");
for (const [placement, [ours, theirs]] of runs) {
  const ahead = ours.filter(
    (run, i) => run.requestsPerSecond > (theirs[i]?.requestsPerSecond ?? 0),
  ).length;
  const summary = (list: Run[]) =>
    `${Math.round(median(list.map((r) => r.requestsPerSecond)))} req/s, p99 ${median(list.map((r) => r.p99Ms))} ms, ${Math.round(median(list.map((r) => r.cpuMicroseconds)))} µs`;
  process.stdout.write(
    `${placement}: medians of ${ours.length}: ${names[0]} ${summary(ours)}; ${names[1]} ${summary(theirs)}; ${names[0]} ahead in req/s in ${ahead} of ${ours.length}\n`,
  );
}
