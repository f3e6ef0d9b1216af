// npm run bench:profile: where the service's CPU goes under a load of creates. The compiled
// server (what `npm start` runs) is started under `node --cpu-prof`, pinned to core 0, on a fresh
// store, and loaded from the last core by autocannon for a bounded time; once it has stopped, the
// profile of each thread (the main thread, and on SQLite the write thread) is summed by self time
// per function and per package, counting only the samples of the measured seconds (start-up,
// warm-up and shut-down left out). See BENCHMARKS.md, "Profiles".
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { cpus, release, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { summarise, type ThreadSummary } from "./cpu-profile.ts";
import {
  addCreated,
  drive,
  type LoadResult,
  type Operation,
  pickStored,
  type Stored,
} from "./load.ts";
import { statCpuSeconds } from "./server.ts";
import { commitOf, cores, pinSelf, serviceCommand, TOKEN, wholeNumber } from "./service.ts";
import { startServiceOnStore } from "./service-store.ts";

const USAGE = `usage: npm run bench:profile -- [options]
  --duration S      seconds of load profiled (10)
  --warmup S        seconds of load before, not counted (3)
  --connections N   concurrent connections (50)
  --engine NAME     sqlite or postgres (sqlite). postgres needs TEST_DATABASE_URL or
                    DATABASE_URL: a PostgreSQL server the run makes a fresh database on (and
                    drops afterwards)
  --operation OP    create, get or list (create); get and list read the plants the warm-up
                    created
  --service DIR     profile the service in another checkout (this one)
  --top N           functions listed per thread (25)
  --keep DIR        keep the .cpuprofile files in DIR (for Chrome DevTools or speedscope)`;

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    engine: { type: "string", default: "sqlite" },
    operation: { type: "string", default: "create" },
    service: { type: "string", default: "." },
    top: { type: "string", default: "25" },
    keep: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const durationSeconds = wholeNumber("duration", values.duration, 1);
const warmupSeconds = wholeNumber("warmup", values.warmup);
const connections = wholeNumber("connections", values.connections, 1);
const top = wholeNumber("top", values.top, 1);
const given = values.engine;
if (given !== "sqlite" && given !== "postgres") {
  throw new Error(`--engine must be sqlite or postgres, got ${given}`);
}
const engine: "sqlite" | "postgres" = given;
const operation = values.operation as Operation;
if (!["create", "get", "list"].includes(operation)) {
  throw new Error(`--operation must be create, get or list, got ${values.operation}`);
}
const adminUrl = process.env["TEST_DATABASE_URL"] ?? process.env["DATABASE_URL"];
if (engine === "postgres" && adminUrl === undefined) {
  throw new Error(
    "--engine postgres needs TEST_DATABASE_URL or DATABASE_URL (a PostgreSQL server)",
  );
}

const work = mkdtempSync(join(tmpdir(), "plantstore-profile-"));
const profiles = values.keep ?? join(work, "profiles");
const service = serviceCommand(values.service);
const [node = process.execPath, ...nodeArguments] = service.command;
// Server on core 0, load on the last, when there are two.
const serverCores = cores >= 2 ? "0" : undefined;
const now = () => Number(process.hrtime.bigint() / 1000n);

/** CPU seconds of each thread of a process so far, by thread id. */
function threadCpu(pid: number): Map<number, number> {
  const ids = readdirSync(`/proc/${pid}/task`).map(Number);
  return new Map(ids.map((id) => [id, statCpuSeconds(`/proc/${pid}/task/${id}/stat`)]));
}

/**
 * What the threads spent in the window, from /proc: the main thread, and the busiest other (the
 * SQLite write thread; the rest are V8's and libuv's helpers).
 */
function cpuInWindow(before: Map<number, number>, after: Map<number, number>, pid: number) {
  const spent = [...after].map(([id, seconds]) => ({
    id,
    seconds: seconds - (before.get(id) ?? 0),
  }));
  const others = spent.filter(({ id }) => id !== pid).sort((a, b) => b.seconds - a.seconds);
  return {
    main: spent.find(({ id }) => id === pid)?.seconds ?? 0,
    busiestOther: others[0]?.seconds ?? 0,
    rest: others.slice(1).reduce((sum, { seconds }) => sum + seconds, 0),
  };
}

/** Runs the profiled server under load; what the load got, and the window it was counted in. */
async function profiledRun(): Promise<{
  load: LoadResult;
  window: [number, number];
  cpu: ReturnType<typeof cpuInWindow>;
}> {
  const { server } = await startServiceOnStore({
    engine,
    adminUrl,
    work,
    command: [node, "--cpu-prof", `--cpu-prof-dir=${profiles}`, ...nodeArguments],
    name: "profiled",
    plants: 0,
    cores: serverCores ?? `0-${cores - 1}`,
  });
  try {
    const stored: Stored = [];
    const load = (seconds: number, firstId = 0, kind: Operation = operation) =>
      drive({
        url: server.url,
        token: TOKEN,
        connections,
        durationSeconds: seconds,
        operation: kind,
        firstId,
        pickStored: () => pickStored(stored),
      });
    process.stderr.write(
      `bench:profile: ${warmupSeconds} s warm-up, ${durationSeconds} s profiled, ${operation} on ${engine}\n`,
    );
    // Reads need plants: the warm-up creates them (at least one second of it).
    const warmSeconds = operation === "create" ? warmupSeconds : Math.max(1, warmupSeconds);
    const warm = warmSeconds > 0 ? await load(warmSeconds, 0, "create") : undefined;
    if (warm !== undefined) addCreated(stored, 0, warm, connections);
    const from = now();
    const before = threadCpu(server.pid);
    const measured = await load(durationSeconds, warm?.sent ?? 0);
    const cpu = cpuInWindow(before, threadCpu(server.pid), server.pid);
    return { load: measured, window: [from, now()], cpu };
  } finally {
    // The profiles are written as the threads exit: a graceful stop.
    await server.stop();
  }
}

pinSelf(serverCores !== undefined);
let run: Awaited<ReturnType<typeof profiledRun>>;
try {
  run = await profiledRun();
} catch (error) {
  process.stderr.write(`bench:profile: the server's log is in ${work}\n`);
  throw error;
}
const { load, window, cpu } = run;

// Node names a thread's profile CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile; the main
// thread is thread 0, the SQLite write thread the one worker.
const files = readdirSync(profiles)
  .filter((file) => file.endsWith(".cpuprofile"))
  .map((file) => ({ file, thread: Number(file.split(".")[4]) }))
  .sort((a, b) => a.thread - b.thread);
if (files.length === 0) throw new Error(`no .cpuprofile written in ${profiles}`);

const ms = (us: number) => (us / 1000).toFixed(0);
const share = (us: number, of: ThreadSummary) =>
  `${((100 * us) / of.busyMicroseconds).toFixed(1)} %`;
const out = (line = "") => process.stdout.write(`${line}\n`);

out();
out(
  `${cores} × ${cpus()[0]?.model ?? "unknown CPU"}, Linux ${release()}, Node ${process.version}; the server on core 0, load on core ${cores - 1}; ${connections} connections of ${operation}s, ${durationSeconds} s profiled after ${warmupSeconds} s warm-up; ${engine}; service at ${commitOf(service.root)}`,
);
out(
  `${Math.round(load.requestsPerSecond)} ${operation}s a second, ${load.errors} errors${load.errors > 0 ? ` (${load.errorKinds})` : ""}`,
);
for (const { file, thread } of files) {
  const summary = summarise(join(profiles, file), ...window);
  const name = thread === 0 ? "main thread" : `write thread (thread ${thread})`;
  out();
  out(
    `### ${name}: busy ${ms(summary.busyMicroseconds)} ms of ${ms(summary.totalMicroseconds)} ms sampled (${((100 * summary.busyMicroseconds) / Math.max(1, summary.totalMicroseconds)).toFixed(0)} %)`,
  );
  out();
  out("| package | self ms | share of busy |");
  out("|---|---:|---:|");
  for (const entry of summary.packages) {
    out(`| ${entry.name} | ${ms(entry.microseconds)} | ${share(entry.microseconds, summary)} |`);
  }
  out();
  out("| function | package | self ms | share of busy |");
  out("|---|---|---:|---:|");
  for (const entry of summary.functions.slice(0, top)) {
    out(
      `| \`${entry.name}\` | ${entry.where} | ${ms(entry.microseconds)} | ${share(entry.microseconds, summary)} |`,
    );
  }
}
out();
// V8 samples wall time: a thread that wakes the other on one core and is preempted until it runs
// again has the wait charged to the frame it was in (postMessage, say). /proc counts CPU only.
out(
  `CPU from /proc in the profiled seconds: main thread ${ms(cpu.main * 1e6)} ms, the busiest other thread (the write thread on SQLite) ${ms(cpu.busiestOther * 1e6)} ms, the other threads together ${ms(cpu.rest * 1e6)} ms; CPU µs a ${operation}: ${((1e6 * (cpu.main + cpu.busiestOther + cpu.rest)) / Math.max(1, load.answered)).toFixed(0)}`,
);
if (load.errors > 0) process.exitCode = 1;
rmSync(work, { recursive: true, force: true });
if (values.keep !== undefined)
  process.stderr.write(`bench:profile: profiles kept in ${profiles}\n`);
