// Starts a server process for the benchmark, optionally pinned to CPU cores, waits until it
// answers, and reads its peak memory (VmHWM of it and its cluster workers) before stopping it.
import { type ChildProcess, spawn } from "node:child_process";
import { openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export interface BenchServer {
  url: string;
  /** The server's process id (its main thread's too). */
  pid: number;
  /** Peak resident set size in MiB: the largest process, and all processes together. */
  peakRss(): { maxMb: number; totalMb: number };
  /** CPU seconds (user + system) used so far by the server and its workers. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

export interface ServerSpec {
  /** The program and its arguments, e.g. node --import tsx src/main.ts. */
  command: readonly string[];
  env: Record<string, string>;
  /** Cores to pin to with taskset, e.g. "0"; undefined leaves it to the scheduler. */
  cores: string | undefined;
  logFile: string;
}

const START_TIMEOUT_MS = 60_000;

export async function startServer(spec: ServerSpec): Promise<BenchServer> {
  const port = await freePort();
  const [program = "node", ...args] =
    spec.cores === undefined ? spec.command : ["taskset", "-c", spec.cores, ...spec.command];
  const log = openSync(spec.logFile, "a");
  const child = spawn(program, args, {
    env: { ...process.env, ...spec.env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(url, child, spec.logFile);
  return {
    url,
    pid: child.pid ?? 0,
    peakRss: () => peakRss(child.pid ?? 0),
    cpuSeconds: () => cpuSeconds(child.pid ?? 0),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(15_000).then(() => child.kill("SIGKILL"))]);
    },
  };
}

async function waitUntilAnswering(url: string, child: ChildProcess, logFile: string) {
  const giveUpAt = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < giveUpAt) {
    if (child.exitCode !== null) {
      throw new Error(`the server exited with ${child.exitCode}; see ${logFile}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error(`the server did not answer within ${START_TIMEOUT_MS} ms; see ${logFile}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** VmHWM of a process and of its descendants (cluster workers), from /proc. */
function peakRss(pid: number): { maxMb: number; totalMb: number } {
  const sizes = processTree(pid).map((id) => {
    const match = /VmHWM:\s+(\d+) kB/.exec(readProc(`/proc/${id}/status`));
    return match === null ? 0 : Number(match[1]) / 1024;
  });
  return { maxMb: Math.max(0, ...sizes), totalMb: sizes.reduce((a, b) => a + b, 0) };
}

/** utime + stime of a process tree, from /proc/PID/stat. */
function cpuSeconds(pid: number): number {
  return processTree(pid).reduce((sum, id) => sum + statCpuSeconds(`/proc/${id}/stat`), 0);
}

/**
 * utime + stime from a /proc stat file: a process's (/proc/PID/stat) or one of its threads'
 * (/proc/PID/task/TID/stat); clock ticks, 100 a second on Linux.
 */
export function statCpuSeconds(statFile: string): number {
  const TICKS_PER_SECOND = 100;
  const fields = readProc(statFile).split(") ").at(-1)?.split(" ") ?? [];
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / TICKS_PER_SECOND;
}

function processTree(pid: number): number[] {
  const children = readProc(`/proc/${pid}/task/${pid}/children`)
    .split(" ")
    .filter((id) => id.trim() !== "")
    .map(Number);
  return [pid, ...children.flatMap(processTree)];
}

function readProc(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
