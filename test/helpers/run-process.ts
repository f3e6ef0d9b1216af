// Runs a process that is meant to end (a refused start-up, `npm run migrate`) and collects
// its output; a bound kills one that hangs, so it cannot hang the test.
import { spawn } from "node:child_process";
import { TOKEN } from "./app.ts";
import { ENTRY_ARGS, REPO_ROOT } from "./server-process.ts";

const DEFAULT_TIMEOUT_MS = 30_000;

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Added to (or, with `undefined`, removed from) this process's environment. */
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs?: number;
}

export function runToExit(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<Finished> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...options.env })) {
    if (value !== undefined) env[name] = value;
  }
  // Its own process group, so a timeout takes npm's shell and node with it.
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const output = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output.stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk;
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise<Finished>((resolve, reject) => {
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      reject(
        new Error(
          `${command} ${args.join(" ")} did not exit within ${timeoutMs} ms\n--- stderr ---\n${output.stderr}`,
        ),
      );
    }, timeoutMs);
    child.once("error", reject);
    // "close" comes after stdout and stderr are drained.
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ...output });
    });
  });
}

/** The server's entry point (`npm start` without npm), for a start-up that should fail. */
export const runServerToExit = (env: RunOptions["env"], timeoutMs?: number): Promise<Finished> =>
  runToExit(process.execPath, ENTRY_ARGS, {
    env: { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", PLANTSTORE_TOKENS: TOKEN, ...env },
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });

/** `npm run -s migrate` from the repository root. */
export const runMigrate = (env: RunOptions["env"]): Promise<Finished> =>
  runToExit("npm", ["run", "-s", "migrate"], { env });

/** Output split into lines, without the final newline. */
export const linesOf = (text: string): string[] =>
  text === "" ? [] : text.replace(/\n$/, "").split("\n");
