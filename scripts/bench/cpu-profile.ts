// Reads a V8 CPU profile (`node --cpu-prof`) and sums its samples' self time per function and per
// package, within a window of the monotonic clock: the frames of the bundled server mapped back
// to their sources through the build's source maps (dist/server/*.mjs.map).
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds of the monotonic clock (process.hrtime's). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  /** A function and where it is, e.g. `pump src/store/batcher.ts:62`. */
  name: string;
  /** Its npm package, `src/<folder>` for the project's code, or what V8 calls the rest. */
  where: string;
  microseconds: number;
}

export interface ThreadSummary {
  /** Sampled time in the window, idle included. */
  totalMicroseconds: number;
  /** Sampled time in the window not idle: what the shares divide by. */
  busyMicroseconds: number;
  functions: SelfTime[];
  packages: SelfTime[];
}

/** Where a frame's code comes from, after its source map. */
interface Source {
  file: string;
  line: number;
}

/**
 * The self time of each function and package of one thread's profile, counting the samples taken
 * between `from` and `to` (µs of the monotonic clock: `process.hrtime.bigint() / 1000n`).
 */
export function summarise(profileFile: string, from: number, to: number): ThreadSummary {
  const profile = JSON.parse(readFileSync(profileFile, "utf8")) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const selfOf = new Map<number, number>();
  let at = profile.startTime;
  let total = 0;
  for (const [index, node] of profile.samples.entries()) {
    at += profile.timeDeltas[index] ?? 0;
    // A sample's time is spent in the frame it caught, until the next sample.
    const spent = profile.timeDeltas[index + 1] ?? 0;
    if (at < from || at > to) continue;
    selfOf.set(node, (selfOf.get(node) ?? 0) + spent);
    total += spent;
  }
  const sources = sourceMaps();
  const functions = new Map<string, SelfTime>();
  const packages = new Map<string, SelfTime>();
  const add = (into: Map<string, SelfTime>, name: string, where: string, us: number) => {
    const entry = into.get(name) ?? { name, where, microseconds: 0 };
    entry.microseconds += us;
    into.set(name, entry);
  };
  let idle = 0;
  for (const [node, us] of selfOf) {
    const frame = frames.get(node);
    if (frame === undefined) continue;
    if (frame.functionName === "(idle)") {
      idle += us;
      continue;
    }
    const source = sources(frame);
    const where = packageOf(frame, source);
    const name = `${frame.functionName || "(anonymous)"}${source === undefined ? "" : ` ${source.file}:${source.line}`}`;
    add(functions, name, where, us);
    add(packages, where, where, us);
  }
  const byTime = (map: Map<string, SelfTime>) =>
    [...map.values()].sort((a, b) => b.microseconds - a.microseconds);
  return {
    totalMicroseconds: total,
    busyMicroseconds: total - idle,
    functions: byTime(functions),
    packages: byTime(packages),
  };
}

/** A frame's source file and line (1-based), through the source map beside a bundled file. */
function sourceMaps(): (frame: CallFrame) => Source | undefined {
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (url: string): SourceMap | undefined => {
    if (!maps.has(url)) {
      let map: SourceMap | undefined;
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, "utf8")));
      } catch {
        map = undefined;
      }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  return (frame) => {
    if (!frame.url.startsWith("file:")) {
      return frame.url === "" ? undefined : { file: frame.url, line: frame.lineNumber + 1 };
    }
    const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry === undefined || !("originalSource" in entry)) {
      return { file: shortPath(fileURLToPath(frame.url)), line: frame.lineNumber + 1 };
    }
    return { file: shortPath(entry.originalSource), line: entry.originalLine + 1 };
  };
}

/** A path from the project's root: src/…, node_modules/…, or as it is. */
function shortPath(path: string): string {
  const modules = path.lastIndexOf("node_modules/");
  if (modules !== -1) return path.slice(modules);
  const src = path.lastIndexOf("src/");
  return src === -1 ? path : path.slice(src);
}

/**
 * The package a frame belongs to: an npm package, `src/<folder>` of the project, `node` for
 * Node's own JavaScript, or V8's name for time outside JavaScript (`(garbage collector)`,
 * `(program)`, a native function bound to JavaScript).
 */
function packageOf(frame: CallFrame, source: Source | undefined): string {
  if (source === undefined) {
    return frame.functionName.startsWith("(") ? frame.functionName : "native (C++ called from JS)";
  }
  const { file } = source;
  if (file.startsWith("node:")) return "node";
  if (file.startsWith("node_modules/")) {
    const parts = file.slice("node_modules/".length).split("/");
    return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] ?? file);
  }
  if (file.startsWith("src/")) return file.split("/").slice(0, 2).join("/");
  return file;
}
