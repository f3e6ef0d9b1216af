// What the benchmarks (scripts/bench.ts, and paired.ts, webhooks.ts and startup.ts here) start
// and how: the service as `npm start` runs it, the ceilings, the token and settings they share.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { startNodeArguments } from "../start-command.ts";

export const TOKEN = "bench-token-0123456789abcdef";
const NODE_TSX = [process.execPath, "--import", "tsx"];
/** The ceiling server (ceiling-server.ts), run through tsx like the other scripts. */
export const CEILING = [...NODE_TSX, "scripts/bench/ceiling-server.ts"];

/**
 * The service of the checkout at `root`, as `npm start` runs it: compiled into dist/server/,
 * without tsx, with the node options of the start script (its command after `exec node`).
 * Checkouts from before the compiled start have no build step; their start script runs the
 * sources through tsx.
 */
export function serviceCommand(root: string): { root: string; command: string[] } {
  const serviceRoot = resolve(root);
  if (!existsSync(join(serviceRoot, "node_modules"))) {
    throw new Error(`${serviceRoot} has no node_modules: run npm ci there first`);
  }
  if (existsSync(join(serviceRoot, "scripts/build-server.mjs"))) {
    execFileSync(process.execPath, ["scripts/build-server.mjs"], {
      stdio: "inherit",
      cwd: serviceRoot,
    });
  }
  return {
    root: serviceRoot,
    command: [process.execPath, ...startNodeArguments(serviceRoot)],
  };
}

export const serviceEnv = (databaseUrl: string, workers = 1): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: "info",
  PLANTSTORE_TOKENS: TOKEN,
  // The limiter stays on (its cost is part of every request) but out of the way.
  PLANTSTORE_TOKEN_RATE_LIMIT: "1000000000",
  PLANTSTORE_WORKERS: String(workers),
});

/** The checkout's commit, marked when it has changes of its own, for the output's header. */
export function commitOf(root: string): string {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim();
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") === "" ? "" : " with changes"}`;
  } catch {
    return "a directory that is not a git checkout";
  }
}

export const cores = availableParallelism();

/** Moves this process (the load generator) to the last core, or back onto all of them. */
export function pinSelf(pinned: boolean): void {
  if (cores < 2) return;
  const list = pinned ? String(cores - 1) : `0-${cores - 1}`;
  try {
    execFileSync("taskset", ["-apc", list, String(process.pid)], { stdio: "ignore" });
  } catch {
    // no taskset: the scheduler decides
  }
}

/** An option's value as a whole number of at least `least`, or an error naming the option. */
export function wholeNumber(name: string, text: string, least = 0): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < least) {
    throw new Error(
      `--${name} must be a whole number${least === 0 ? "" : ` of at least ${least}`}`,
    );
  }
  return value;
}

/** The middle value, or the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** `work`, or an error naming `what` once it has taken over `ms`: a bench that is stuck stops. */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export type Engine = "sqlite" | "postgres";

/**
 * The engines --engines lists (default: SQLite, and PostgreSQL when TEST_DATABASE_URL names a
 * server), or an error naming one unknown or without its server.
 */
export function benchEngines(listed: string | undefined, adminUrl: string | undefined): Engine[] {
  const engines = (listed ?? (adminUrl === undefined ? "sqlite" : "sqlite,postgres")).split(",");
  for (const engine of engines) {
    if (engine !== "sqlite" && engine !== "postgres") throw new Error(`unknown engine ${engine}`);
    if (engine === "postgres" && adminUrl === undefined) {
      throw new Error("--engines postgres needs TEST_DATABASE_URL");
    }
  }
  return engines as Engine[];
}
