// `npm run bench:request-files`: which files of src/ one warmed request runs code in, on every
// thread (the SQLite write thread too), read from V8's block coverage. Two starts of the
// service from its sources make the same warm-up requests; the second then makes one more. A
// file counts when a function in it ran more often in the second.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { TOKEN } from "./service.ts";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const WARM = 200;
// `-- --functions`: the functions that ran, by file.
const SHOW_FUNCTIONS = process.argv.includes("--functions");
const PORT = 38_471;
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

async function run(probe: Probe, extra: boolean): Promise<Counts> {
  const dir = mkdtempSync(join(tmpdir(), "request-files-"));
  const server = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_V8_COVERAGE: join(dir, "coverage"),
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
    if (extra) await answered(probe.send(WARM + 1));
    const exited = new Promise((done) => server.once("exit", done));
    server.kill("SIGTERM");
    // Coverage is written at exit: a server that has not stopped in 30 s has none to give.
    const stopped = setTimeout(() => server.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(stopped);
    return readCounts(join(dir, "coverage"));
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

async function until(ready: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
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

for (const probe of PROBES) {
  const without = await run(probe, false);
  const withOne = await run(probe, true);
  const files = new Map<string, Set<string>>();
  for (const [key, count] of withOne) {
    if (count <= (without.get(key) ?? 0)) continue;
    const file = key.slice(0, key.indexOf("#"));
    const ran = files.get(file) ?? new Set<string>();
    ran.add(key.slice(key.indexOf(" ") + 1));
    files.set(file, ran);
  }
  console.log(`${probe.name}: ${files.size} files`);
  for (const [file, ran] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${file}${SHOW_FUNCTIONS ? `: ${[...ran].join(", ")}` : ""}`);
  }
}
