// Self time of a V8 CPU profile (node --cpu-prof) by module: each npm package, each of our
// source files, Node's internals, GC. In the compiled server (dist/server/), a frame is put
// down to the source file esbuild bundled it from (its `// src/…` marker lines). Prints a
// Markdown table, largest first (BENCHMARKS.md, "Reproducing a profile").
//   tsx scripts/bench/profile-summary.ts [--skip SECONDS] FILE.cpuprofile…
// --skip leaves out the first seconds of the profile (start-up and warm-up).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface Profile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
}

/** For a bundle of ours: the first line of each source file's code, in order. */
const bundleMaps = new Map<string, { line: number; source: string }[]>();
function bundleSource(url: string, line: number): string | undefined {
  if (!url.includes("/dist/server/")) return undefined;
  let starts = bundleMaps.get(url);
  if (starts === undefined) {
    starts = [];
    const lines = readFileSync(fileURLToPath(url), "utf8").split("\n");
    lines.forEach((text, index) => {
      if (text.startsWith("// src/") || text.startsWith("// generated/")) {
        starts?.push({ line: index, source: text.slice(3).trim() });
      }
    });
    bundleMaps.set(url, starts);
  }
  let found: string | undefined;
  for (const start of starts) {
    if (start.line > line) break;
    found = start.source;
  }
  return found;
}

/** Where a frame's code lives: an npm package, a file of ours, or what V8/Node call it. */
export function moduleOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === "") {
    return functionName.startsWith("(") ? functionName : `native: ${functionName || "(anonymous)"}`;
  }
  if (url.startsWith("node:")) return `node: ${url.slice(5).split("/")[0]}`;
  const packageAt = url.lastIndexOf("/node_modules/");
  if (packageAt !== -1) {
    const [scope = "", name = ""] = url.slice(packageAt + 14).split("/");
    return scope.startsWith("@") ? `${scope}/${name}` : scope;
  }
  const bundled = bundleSource(url, frame.lineNumber);
  if (bundled !== undefined) return bundled;
  const project = /\/(src|generated|dist)\/.*$/.exec(url);
  return project === null ? url : project[0].slice(1);
}

function summarise(path: string, skipMicroseconds: number): void {
  const profile = JSON.parse(readFileSync(path, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  let clock = 0;
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    clock += delta;
    const node = byId.get(id);
    if (node === undefined || clock < skipMicroseconds) return;
    const name = moduleOf(node.callFrame);
    if (name === "(idle)") return;
    totals.set(name, (totals.get(name) ?? 0) + delta);
    busy += delta;
  });
  process.stdout.write(
    `${path}: ${(busy / 1e6).toFixed(1)} s busy after the first ${skipMicroseconds / 1e6} s\n\n`,
  );
  process.stdout.write("| module | share of busy time |\n|---|---:|\n");
  for (const [name, time] of [...totals].sort((a, b) => b[1] - a[1])) {
    const share = (100 * time) / busy;
    if (share >= 0.5) process.stdout.write(`| ${name} | ${share.toFixed(1)}% |\n`);
  }
}

const { values, positionals } = parseArgs({
  options: { skip: { type: "string", default: "0" } },
  allowPositionals: true,
});
for (const path of positionals) summarise(path, Number(values.skip) * 1e6);
