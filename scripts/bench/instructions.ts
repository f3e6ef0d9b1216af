// npm run bench:instructions: CPU instructions per request, counted by valgrind's callgrind
// in the server process (every thread: the event loop, the SQLite write thread, GC helpers).
// Unlike req/s and CPU time, an instruction count does not move with what else the machine
// runs, so it can compare two commits on a shared, noisy machine. The same count for the
// ceilings gives the ratio a CPU-bound server would reach: ceiling instructions / ours.
// Slow (valgrind runs the server ~50× slower), so it counts a few thousand requests, after as
// many of warm-up (with less, V8 is still compiling inside the window). KEEP=1 keeps the
// callgrind files (callgrind_annotate reads them). --preload N stores N plants first, so the
// same counts show what a large store costs per request.
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
    warmup: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "8" },
    preload: { type: "string", default: "0" },
  },
});
const requests = Number(values.requests);
const warmup = Number(values.warmup);
const concurrency = Number(values.concurrency);
const preload = Number(values.preload);
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
async function send(operation: Operation, first: number, count: number, stored = 1): Promise<void> {
  let next = first;
  const one = async (): Promise<void> => {
    while (next < first + count) {
      const x = next++;
      const response =
        operation === "create"
          ? await fetch(`${url}/plants`, {
              method: "POST",
              headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
              body: `{"id":${benchId(x)},"name":"${benchName(x)}"${x % 2 === 0 ? ',"tag":"bench"' : ""}}`,
            })
          : await fetch(`${url}/plants/${benchId((x * READ_STRIDE) % stored)}`, {
              headers: { authorization: `Bearer ${TOKEN}` },
            });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${operation} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, one));
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
 * Instructions per request of `operation` on the server `args` starts, under callgrind. Creates
 * store ids from `preload` on (the preloaded ones are below); reads read among the preloaded ids
 * and the `warmup` ones a create run stored after them.
 */
async function count(
  name: string,
  args: readonly string[],
  env: Record<string, string>,
  operation: Operation,
): Promise<number> {
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
    await send(operation, preload, warmup, stored);
    execFileSync("callgrind_control", ["--zero", String(child.pid)], {
      stdio: "ignore",
      env: vgdbEnv,
    });
    await send(operation, operation === "create" ? stored : 0, requests, stored);
    execFileSync("callgrind_control", ["--dump", String(child.pid)], {
      stdio: "ignore",
      env: vgdbEnv,
    });
    // The first dump holds exactly what ran between --zero and --dump.
    const dump = readFileSync(`${out}.${child.pid}.1`, "utf8");
    const total = /\n(?:totals|summary): (\d+)/.exec(dump)?.[1];
    if (total === undefined) throw new Error(`no totals in ${out}.${child.pid}.1`);
    return Number(total) / requests;
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
};
try {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "ignore", env: vgdbEnv });
  if (preload > 0) preloadSqlite(db, preload);
  const rows: [string, number][] = [];
  rows.push(["ceiling: create", await count("ceiling", ceiling, { BENCH_TOKEN: TOKEN }, "create")]);
  rows.push(["sqlite: create", await count("create", service, serviceEnv, "create")]);
  rows.push(["sqlite: GET by id", await count("get", service, serviceEnv, "get")]);
  rows.push([
    "read ceiling: GET by id",
    await count("read-ceiling", ceiling, { BENCH_TOKEN: TOKEN, BENCH_SQLITE_PATH: db }, "get"),
  ]);
  process.stdout.write(
    `\n${requests} requests counted after ${warmup} warm-up, ${concurrency} at a time, ${preload} stored before\n\n`,
  );
  process.stdout.write("| target | instructions per request | ceiling ÷ this |\n|---|---:|---:|\n");
  const [createCeiling, , , readCeiling] = rows.map(([, n]) => n);
  const ratio = (ceilingCount: number | undefined, n: number) =>
    ceilingCount === undefined ? "-" : (ceilingCount / n).toFixed(2);
  for (const [name, n] of rows) {
    const base = name.startsWith("sqlite: create")
      ? createCeiling
      : name.startsWith("sqlite: GET")
        ? readCeiling
        : n;
    process.stdout.write(
      `| ${name} | ${Math.round(n).toLocaleString("en")} | ${ratio(base, n)} |\n`,
    );
  }
} finally {
  if (process.env["KEEP"] === undefined) rmSync(work, { recursive: true, force: true });
}
