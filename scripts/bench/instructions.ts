// npm run bench:instructions: CPU instructions per request, counted by valgrind's callgrind
// in the server process (every thread: the event loop, the SQLite write thread, GC helpers).
// Unlike req/s and CPU time, an instruction count does not move with what else the machine
// runs, so it can compare two commits on a shared, noisy machine. The same count for the
// ceilings gives the ratio a CPU-bound server would reach: ceiling instructions / ours.
// Slow (valgrind runs the server ~50× slower), so it counts a few thousand requests, after ten
// times as many of warm-up: after 2,000, V8's optimizing compiler was 43% of a create's count,
// and functions that run once a request were still in unoptimized code. KEEP=1 keeps the
// callgrind files (callgrind_annotate reads them). --preload N stores N plants first, so the
// same counts show what a large store costs per request. Each count is also given without V8's
// optimizing compiler, without it and garbage collection (see backgroundWork below), without
// those and the clock's share (see Count below), and without the object literals V8 builds in
// its runtime in some runs and not others (RUNTIME_LITERALS): the last is the steadiest figure
// to compare two commits, or two machines, by.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { startNodeArguments } from "../start-command.ts";
import { benchId, benchName } from "./ids.ts";
import { preloadSqlite } from "./preload.ts";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "2000" },
    warmup: { type: "string", default: "20000" },
    // Seconds the server is left idle, counted, before the window (see Count below).
    idle: { type: "string", default: "10" },
    concurrency: { type: "string", default: "8" },
    preload: { type: "string", default: "0" },
    // Some of the four counts only (comma-separated): ceiling, create, get, read-ceiling.
    only: { type: "string", default: "ceiling,create,get,read-ceiling" },
    // A setting for the service (NAME=VALUE, repeatable), to see what one feature costs.
    env: { type: "string", multiple: true, default: [] },
  },
});
const only = new Set(values.only.split(","));
if ((only.has("get") || only.has("read-ceiling")) && !only.has("create")) {
  // The reads read what the create count stored.
  throw new Error("--only: get and read-ceiling need create too");
}
const requests = Number(values.requests);
const warmup = Number(values.warmup);
const concurrency = Number(values.concurrency);
const preload = Number(values.preload);
const idleSeconds = Number(values.idle);
if (!(idleSeconds > 0)) throw new Error("--idle: a number of seconds above 0");
const TOKEN = "bench-token-0123456789abcdef";
const PORT = Number(process.env["BENCH_PORT"] ?? "18650");
const url = `http://127.0.0.1:${PORT}`;
const work = mkdtempSync(join(tmpdir(), "plantstore-instructions-"));
// valgrind and callgrind_control find each other through a file named after USER and HOST
// from the environment, so both get the same: HOST is also where the server listens.
const vgdbEnv = {
  ...process.env,
  USER: userInfo().username,
  LOGNAME: userInfo().username,
  HOST: "127.0.0.1",
};

type Operation = "create" | "get";
const READ_STRIDE = 104_729;

/**
 * Sends `count` requests, `concurrency` at a time. Creates take ids from `first` on; reads take
 * the `stored` ids in a scattered order (a prime stride), so a large store is read all over.
 */
async function send(
  operation: Operation,
  first: number,
  count: number,
  stored: number,
  warmingUp: boolean,
): Promise<void> {
  let next = first;
  const one = async (): Promise<void> => {
    while (next < first + count) {
      const x = next++;
      let response = await sendOne(operation, x, stored);
      // Start-up blocks the event loop for a minute under valgrind, so the overload guard may
      // refuse the first requests (503) until its next sample: the warm-up sends them again.
      while (warmingUp && response.status === 503) {
        await response.arrayBuffer();
        await sleep(1000);
        response = await sendOne(operation, x, stored);
      }
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${operation} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, one));
}

function sendOne(operation: Operation, x: number, stored: number): Promise<Response> {
  return operation === "create"
    ? fetch(`${url}/plants`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: `{"id":${benchId(x)},"name":"${benchName(x)}"${x % 2 === 0 ? ',"tag":"bench"' : ""}}`,
      })
    : fetch(`${url}/plants/${benchId((x * READ_STRIDE) % stored)}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
}

async function waitUntilAnswering(child: ChildProcess): Promise<void> {
  const giveUpAt = Date.now() + 600_000;
  while (Date.now() < giveUpAt) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error("the server did not answer under valgrind within 600 s");
}

/**
 * Instructions per request: all of them, those of V8's optimizing compiler and GC among them,
 * and the clock's share (`idle`): what the server runs per second with nothing to answer
 * (timers: the overload guard reads and resets its event-loop histograms, the connection
 * sweep, the log flush), times the seconds the window lasted, per request. At full speed that
 * is one sample a second among thousands of requests; valgrind stretches the window fifty-fold,
 * and more on a slower disk or a busier machine, so it moved counts by several percent from one
 * machine or run to another (2-5% of a create).
 */
interface Count {
  all: number;
  compiling: number;
  collecting: number;
  idle: number;
  literals: number;
}

/**
 * Object literals V8 builds in its runtime, not in compiled code: Node's `process.nextTick`
 * makes one with computed (symbol) keys for every tick, several ticks a request, and in some
 * runs its optimized code (inlined into the streams' and http's own) calls the runtime for it,
 * in others not. Which one a run gets does not depend on our code; it moved a create by 22,000
 * instructions and a GET by 34,000, so the steadiest figure leaves it out (BENCHMARKS.md,
 * "Instruction counts").
 * Counted inclusive: a collection one of them started would be left out twice (with GC too),
 * which the counts so far never showed (the same figure in every run that had them).
 */
const RUNTIME_LITERALS = "v8::internal::Runtime_DefineKeyedOwnPropertyInLiteral(";

/** Functions whose instructions (inclusive) are V8's garbage collection on the main thread. */
const MAIN_THREAD_GC = [
  "v8::internal::Heap::CollectGarbage(",
  "v8::internal::IncrementalMarking::Step(",
  "v8::internal::IncrementalMarking::Start(",
];

/**
 * What V8's optimizing compiler (Turbofan, on its own threads) and its garbage collector ran in
 * a dump. After 2,000 requests of warm-up it was still compiling under valgrind, half of a
 * create's count; after 20,000, from none to an eighth. A server that has run for a while has
 * finished, so the counts are also given without it. A full collection comes every several
 * thousand requests and costs some 100 million instructions: whether one falls inside a
 * window of 2,000 moves a count by a quarter, so the counts are also given without GC (and GC
 * alone, which is what allocating less lowers). GC here: every V8 helper thread's work but
 * the compiler's (marking, sweeping, evacuating), and the collections and marking steps on
 * the main thread.
 */
function backgroundWork(file: string): {
  compiling: number;
  collecting: number;
  literals: number;
} {
  const annotated = execFileSync(
    "callgrind_annotate",
    ["--inclusive=yes", "--threshold=100", file],
    { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  ).split("\n");
  const inclusive = (name: string) =>
    annotated
      .filter((text) => text.includes(name))
      // callgrind_annotate prints "." for none.
      .reduce(
        (sum, text) => sum + (Number(text.trim().split(" ")[0]?.replaceAll(",", "")) || 0),
        0,
      );
  const compiling = inclusive("OptimizingCompileDispatcher::CompileTask::RunInternal()");
  const helpers = inclusive("node::(anonymous namespace)::PlatformWorkerThread(void*)");
  const mainThread = MAIN_THREAD_GC.reduce((sum, name) => sum + inclusive(name), 0);
  return {
    compiling,
    collecting: helpers - compiling + mainThread,
    literals: inclusive(RUNTIME_LITERALS),
  };
}

/** A dump's total, its compiler's and GC's instructions, and its literals in the runtime. */
function dumped(file: string): ReturnType<typeof backgroundWork> & { total: number } {
  const total = /\n(?:totals|summary): (\d+)/.exec(readFileSync(file, "utf8"))?.[1];
  if (total === undefined) throw new Error(`no totals in ${file}`);
  return { total: Number(total), ...backgroundWork(file) };
}

/**
 * Instructions per request of `operation` on the server `args` starts, under callgrind. Creates
 * store ids from `preload` on (the preloaded ones are below); reads read among the preloaded ids
 * and the `warmup` ones a create run stored after them.
 */
async function count(
  name: string,
  args: readonly string[],
  env: Record<string, string>,
  operation: Operation,
): Promise<Count> {
  const out = join(work, name.replace(/\W+/g, "-"));
  const child = spawn(
    "valgrind",
    ["--tool=callgrind", `--callgrind-out-file=${out}.%p`, process.execPath, ...args],
    {
      env: { ...vgdbEnv, ...env, PORT: String(PORT), HOST: "127.0.0.1" },
      stdio: ["ignore", openSync(`${out}.log`, "a"), openSync(`${out}.log`, "a")],
    },
  );
  try {
    await waitUntilAnswering(child);
    const stored = preload + warmup;
    await send(operation, preload, warmup, stored, true);
    const control = (command: "--zero" | "--dump") =>
      execFileSync("callgrind_control", [command, String(child.pid)], {
        stdio: "ignore",
        env: vgdbEnv,
      });
    // What the warm-up left in flight (a commit, a log flush) settles before the idle count.
    await sleep(2000);
    control("--zero");
    const idleStart = performance.now();
    await sleep(idleSeconds * 1000);
    control("--dump");
    const idleFor = (performance.now() - idleStart) / 1000;
    control("--zero");
    const windowStart = performance.now();
    // Reads start at the second stored id: the first, 0, is the only one-digit id, and reading
    // it first sent the router and the id reader back to unoptimized code for part of the window.
    await send(operation, operation === "create" ? stored : 1, requests, stored, false);
    control("--dump");
    const windowFor = (performance.now() - windowStart) / 1000;
    // Each dump holds exactly what ran between the --zero before it and it.
    const idle = dumped(`${out}.${child.pid}.1`);
    const busy = dumped(`${out}.${child.pid}.2`);
    const idlePerSecond = (idle.total - idle.compiling - idle.collecting - idle.literals) / idleFor;
    return {
      all: busy.total / requests,
      compiling: busy.compiling / requests,
      collecting: busy.collecting / requests,
      idle: (idlePerSecond * windowFor) / requests,
      literals: busy.literals / requests,
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  }
}

const service = startNodeArguments(process.cwd());
const ceiling = ["--import", "tsx", "scripts/bench/ceiling-server.ts"];
const db = join(work, "plants.db");
const serviceEnv = {
  DATABASE_URL: `sqlite:${db}`,
  LOG_LEVEL: "info",
  PLANTSTORE_TOKENS: TOKEN,
  PLANTSTORE_TOKEN_RATE_LIMIT: "1000000000",
  // Under valgrind the event loop lags seconds behind; the guard still runs, but never refuses.
  PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS: "60000",
  ...Object.fromEntries(values.env.map((setting) => setting.split(/=(.*)/s, 2))),
};
try {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "ignore", env: vgdbEnv });
  if (preload > 0) preloadSqlite(db, preload);
  const rows: [string, Count | undefined][] = [];
  // Each count's name is also what --only calls it.
  const countIf = (...args: Parameters<typeof count>) =>
    only.has(args[0]) ? count(...args) : Promise.resolve(undefined);
  const withToken = { BENCH_TOKEN: TOKEN };
  const readCeilingEnv = { ...withToken, BENCH_SQLITE_PATH: db };
  rows.push(["ceiling: create", await countIf("ceiling", ceiling, withToken, "create")]);
  rows.push(["sqlite: create", await countIf("create", service, serviceEnv, "create")]);
  rows.push(["sqlite: GET by id", await countIf("get", service, serviceEnv, "get")]);
  rows.push([
    "read ceiling: GET by id",
    await countIf("read-ceiling", ceiling, readCeilingEnv, "get"),
  ]);
  process.stdout.write(
    `\n${requests} requests counted after ${warmup} warm-up, ${concurrency} at a time, ${preload} stored before\n\n`,
  );
  process.stdout.write(
    "| target | instructions per request | ceiling ÷ this | without V8's optimizing compiler | ceiling ÷ this | of which GC | without the compiler or GC | ceiling ÷ this | of which the clock | without the compiler, GC or clock | ceiling ÷ this | of which literals in the runtime | without those either | ceiling ÷ this |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
  );
  const [createCeiling, , , readCeiling] = rows.map(([, n]) => n);
  const steady = (n: Count) => n.all - n.compiling;
  const mutator = (n: Count) => n.all - n.compiling - n.collecting;
  const perRequest = (n: Count) => mutator(n) - n.idle;
  const steadiest = (n: Count) => perRequest(n) - n.literals;
  const ratio = (base: number | undefined, n: number) =>
    base === undefined ? "-" : (base / n).toFixed(2);
  const figure = (n: number) => Math.round(n).toLocaleString("en");
  for (const [name, n] of rows) {
    if (n === undefined) continue;
    const base = name.startsWith("sqlite: create")
      ? createCeiling
      : name.startsWith("sqlite: GET")
        ? readCeiling
        : n;
    const cells = [
      figure(n.all),
      ratio(base?.all, n.all),
      figure(steady(n)),
      ratio(base && steady(base), steady(n)),
      figure(n.collecting),
      figure(mutator(n)),
      ratio(base && mutator(base), mutator(n)),
      figure(n.idle),
      figure(perRequest(n)),
      ratio(base && perRequest(base), perRequest(n)),
      figure(n.literals),
      figure(steadiest(n)),
      ratio(base && steadiest(base), steadiest(n)),
    ];
    process.stdout.write(`| ${name} | ${cells.join(" | ")} |\n`);
  }
} finally {
  if (process.env["KEEP"] === undefined) rmSync(work, { recursive: true, force: true });
}
