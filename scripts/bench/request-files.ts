// `npm run bench:request-files`: which files of src/ a warmed request runs code in, on every
// thread (the SQLite write thread too), read from V8's block coverage, and how often it changes
// folder on the main thread, in the order its functions run. Two starts of the service from its
// sources make the same warm-up requests; the second then makes EXTRA more. A file counts when
// a function in it ran at least EXTRA times more in the second: once per request, not a timer
// that fired meanwhile. A third start is traced (request-order-probe.mjs): after the warm-up,
// EXTRA requests pick the functions run once a request on the main thread, a breakpoint on each
// records the order one more request runs them in, and each change of folder of src/ (its top
// level: store/sqlite/ is store/) is counted. A call
// into src/text/ (pure helpers that call nothing back) is not counted as a change; the figure
// with it is shown beside.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { TOKEN } from "./service.ts";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const WARM = 200;
const EXTRA = 20;
// `-- --functions`: the functions that ran, by file.
const SHOW_FUNCTIONS = process.argv.includes("--functions");
// A port of its own each run: another checkout may be running this bench meanwhile.
const PORT = 30_000 + Math.floor(Math.random() * 20_000);
const ORDER_PORT = PORT + 1;
const base = `http://127.0.0.1:${PORT}`;
const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

interface Probe {
  name: string;
  send: (i: number) => Promise<Response>;
}
const PROBES: Probe[] = [
  {
    name: "POST /plants",
    send: (i) =>
      fetch(`${base}/plants`, {
        method: "POST",
        headers,
        body: JSON.stringify({ id: i + 1, name: `plant ${i}` }),
      }),
  },
  { name: "GET /plants/{id}", send: () => fetch(`${base}/plants/1`, { headers }) },
];

type Counts = Map<string, number>; // "file#function offset" → count

type Mode = "base" | "extra" | "order";

async function run(probe: Probe, mode: Mode): Promise<Counts | Hit[][]> {
  const dir = mkdtempSync(join(tmpdir(), "request-files-"));
  const preload = mode === "order" ? ["--import", "./scripts/bench/request-order-probe.mjs"] : [];
  const server = spawn(process.execPath, ["--import", "tsx", ...preload, "src/main.ts"], {
    cwd: ROOT,
    stdio: "ignore",
    env: {
      ...process.env,
      ...(mode === "order"
        ? { REQUEST_ORDER_PORT: String(ORDER_PORT) }
        : { NODE_V8_COVERAGE: join(dir, "coverage") }),
      DATABASE_URL: `sqlite:${join(dir, "plants.db")}`,
      PORT: String(PORT),
      PLANTSTORE_TOKENS: TOKEN,
      PLANTSTORE_WEBHOOK_SEND: "false",
    },
  });
  try {
    await until(async () => (await fetch(`${base}/healthz`)).ok);
    await answered(PROBES[0]?.send(0)); // GET /plants/1 finds a plant
    for (let i = 1; i <= WARM; i++) await answered(probe.send(i));
    let order: Hit[][] = [];
    if (mode === "order") {
      await tell("count");
      for (let i = 1; i <= EXTRA; i++) await answered(probe.send(WARM + i));
      await tell(`arm?n=${EXTRA}`);
      await answered(probe.send(WARM + EXTRA + 1));
      order = (await tell("disarm")) as Hit[][];
    }
    if (mode === "extra") for (let i = 1; i <= EXTRA; i++) await answered(probe.send(WARM + i));
    const exited = new Promise((done) => server.once("exit", done));
    server.kill("SIGTERM");
    // Coverage is written at exit: a server that has not stopped in 30 s has none to give.
    const stopped = setTimeout(() => server.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(stopped);
    return mode === "order" ? order : readCounts(join(dir, "coverage"));
  } finally {
    server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

async function answered(sent: Promise<Response> | undefined): Promise<void> {
  const response = await sent;
  if (response !== undefined && !response.ok) {
    throw new Error(`a probe was answered ${response.status}: ${await response.text()}`);
  }
  await response?.arrayBuffer();
}

/** A breakpoint hit: the call stack's frames in src/, the function hit first. */
interface Hit {
  url: string;
  name: string;
}

async function tell(command: string): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${ORDER_PORT}/${command}`, { method: "POST" });
  if (!response.ok) throw new Error(`request-order-probe: ${await response.text()}`);
  return response.json();
}

async function until(ready: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 1200; tries++) {
    if (await ready().catch(() => false)) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error("the service did not start");
}

interface Coverage {
  result: {
    url: string;
    functions: { functionName: string; ranges: { startOffset: number; count: number }[] }[];
  }[];
}

function readCounts(dir: string): Counts {
  const counts: Counts = new Map();
  for (const name of readdirSync(dir)) {
    const { result } = JSON.parse(readFileSync(join(dir, name), "utf8")) as Coverage;
    for (const script of result) {
      if (!script.url.startsWith("file://")) continue;
      const file = relative(ROOT, fileURLToPath(script.url));
      if (!file.startsWith("src/")) continue;
      for (const fn of script.functions) {
        const range = fn.ranges[0];
        if (range === undefined) continue;
        const key = `${file}#${range.startOffset} ${fn.functionName || "(anonymous)"}`;
        counts.set(key, (counts.get(key) ?? 0) + range.count);
      }
    }
  }
  return counts;
}

// A folder of src/: store/sqlite/ is the store's, as the SQLite engine of its interface.
const folderOf = (url: string): string => {
  const file = relative(join(ROOT, "src"), fileURLToPath(url));
  const slash = file.indexOf("/");
  return slash === -1 ? "src" : file.slice(0, slash);
};
const fileOf = (url: string): string => relative(ROOT, fileURLToPath(url));

/**
 * The folders the request's code is in, in order: each function hit, preceded by its caller's
 * folder when the code had gone elsewhere since (it returned there before calling again).
 */
function folderPath(hits: Hit[][], leaves: boolean): { folder: string; files: string[] }[] {
  const path: { folder: string; files: string[] }[] = [];
  const visit = (url: string) => {
    const folder = folderOf(url);
    if (!leaves && folder === "text") return;
    const last = path.at(-1);
    if (last?.folder === folder) {
      if (last.files.at(-1) !== fileOf(url)) last.files.push(fileOf(url));
    } else path.push({ folder, files: [fileOf(url)] });
  };
  for (const [callee, caller] of hits) {
    if (callee === undefined) continue;
    if (caller !== undefined) visit(caller.url);
    visit(callee.url);
  }
  return path;
}

for (const probe of PROBES) {
  const without = (await run(probe, "base")) as Counts;
  const withExtra = (await run(probe, "extra")) as Counts;
  const files = new Map<string, Set<string>>();
  for (const [key, count] of withExtra) {
    if (count - (without.get(key) ?? 0) < EXTRA) continue;
    const file = key.slice(0, key.indexOf("#"));
    const ran = files.get(file) ?? new Set<string>();
    ran.add(key.slice(key.indexOf(" ") + 1));
    files.set(file, ran);
  }
  const hits = (await run(probe, "order")) as Hit[][];
  const path = folderPath(hits, false);
  const withLeaves = folderPath(hits, true);
  console.log(
    `${probe.name}: ${files.size} files; ${path.length - 1} folder changes on the main thread (${withLeaves.length - 1} counting calls into src/text/)`,
  );
  for (const [file, ran] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${file}${SHOW_FUNCTIONS ? `: ${[...ran].join(", ")}` : ""}`);
  }
  if (SHOW_FUNCTIONS) {
    console.log("  in order, by folder:");
    for (const { folder, files: inFolder } of withLeaves) {
      console.log(
        `    ${folder}: ${inFolder.map((file) => file.slice(file.lastIndexOf("/") + 1)).join(" → ")}`,
      );
    }
  }
}
