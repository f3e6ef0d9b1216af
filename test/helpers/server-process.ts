// Runs the real server as a child process, the way `npm start` does (compiled, dist/server/),
// for tests that need a real socket, real signals and a real SQLite file.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, expect } from "vitest";
import { startNodeArguments } from "../../scripts/start-command.ts";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/store.ts";
import { TOKEN } from "./app.ts";
import { REPO_ROOT } from "./repo-root.ts";
import { DATA } from "./stores.ts";

export { REPO_ROOT };

const LISTENING = "Server listening at ";
const DEFAULT_START_TIMEOUT_MS = 20_000;
const DEFAULT_STOP_TIMEOUT_MS = 15_000;

export interface ExitResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  /** Base URL the server listens on, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  /** Port the server listens on. */
  port: number;
  child: ChildProcess;
  /** Everything the process has written to stderr so far. */
  stderr(): string;
  /** Every stdout line (pino JSON) so far. */
  stdoutLines(): string[];
  /**
   * The stdout lines once `done` holds for them, or as they are after `timeoutMs` (for the
   * test's own assertion to say what is missing): the server writes its log lines within
   * 250 ms, not at once (src/http/request-log.ts).
   */
  waitForStdout(done: (lines: string[]) => boolean, timeoutMs?: number): Promise<string[]>;
  /** Resolves when the process has exited, however that happened. */
  exited: Promise<ExitResult>;
  /**
   * Sends `signal` and waits for the exit. If the process has not exited after
   * `timeoutMs`, it is SIGKILLed and the promise rejects: a stop must never hang a test.
   */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<ExitResult>;
  /** SIGKILL, and wait for the exit. */
  kill(): Promise<ExitResult>;
}

export type StartOptions = (
  | {
      /** The SQLite file; DATABASE_URL becomes `sqlite:${databasePath}`. */
      databasePath: string;
    }
  | {
      /** DATABASE_URL as given, for any engine (see TestStore.url). */
      databaseUrl: string;
    }
) & {
  /** Working directory of the server (relative DATABASE_URLs resolve here); the repo by default. */
  cwd?: string;
  /** PLANTSTORE_TOKENS; defaults to the shared test TOKEN. */
  tokens?: string;
  /** Extra or overriding environment variables; `undefined` removes a variable. */
  env?: Readonly<Record<string, string | undefined>>;
  startTimeoutMs?: number;
  /** Told each piece of stderr as it arrives, e.g. to act on a line before the server listens. */
  onStderr?: (chunk: string) => void;
  /** Runs the server through another command (e.g. in namespaces of its own): its argv prefix. */
  launcher?: readonly string[];
};

// What `npm start` runs: the server compiled into dist/server/ (test/global-setup.ts builds it
// before each run), so every process suite tests what production runs. Absolute paths let the
// server run from any directory.
export const ENTRY_ARGS: readonly string[] = startNodeArguments(REPO_ROOT);

const running = new Set<ChildProcess>();

const isRunning = (child: ChildProcess): boolean =>
  child.exitCode === null && child.signalCode === null;

// Last resort: if the test worker itself goes away, take its servers with it.
process.once("exit", () => {
  for (const child of running) if (isRunning(child)) child.kill("SIGKILL");
});

export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const env: Record<string, string> = {};
  const merged: Record<string, string | undefined> = {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    PLANTSTORE_TOKENS: options.tokens ?? TOKEN,
    DATABASE_URL: "databaseUrl" in options ? options.databaseUrl : `sqlite:${options.databasePath}`,
    LOG_LEVEL: "info",
    // A server sends webhooks only in the suites that test delivery (they set it to true):
    // elsewhere a deliverer would poll the store for nothing.
    PLANTSTORE_WEBHOOK_SEND: "false",
    // No overload guard unless a suite tests it (test/socket/overload.test.ts): on a machine
    // busy with other work, a second of event-loop lag is the machine's, and a 503 for it
    // would fail a test about something else.
    PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS: "0",
    ...options.env,
  };
  for (const [name, value] of Object.entries(merged)) if (value !== undefined) env[name] = value;

  const [command = process.execPath, ...args] = [
    ...(options.launcher ?? []),
    process.execPath,
    ...ENTRY_ARGS,
  ];
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);

  // "close" rather than "exit": it comes after stdout and stderr are drained, so the logs are complete.
  const exited = new Promise<ExitResult>((resolveExit) => {
    child.once("close", (code, signal) => {
      running.delete(child);
      resolveExit({ code, signal });
    });
  });

  let stderrText = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderrText += chunk;
    options.onStderr?.(chunk);
  });

  const lines: string[] = [];
  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;

  const url = await new Promise<string>((resolveUrl, reject) => {
    let settled = false;
    const failStart = (reason: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (isRunning(child)) child.kill("SIGKILL");
      reject(
        new Error(
          `the server did not start: ${reason}\n--- stderr ---\n${stderrText}\n--- stdout ---\n${lines.join("\n")}`,
        ),
      );
    };
    const timer = setTimeout(
      () => failStart(`no "${LISTENING}..." log line within ${startTimeoutMs} ms`),
      startTimeoutMs,
    );
    const onEarlyExit = ({ code, signal }: ExitResult): void =>
      failStart(`the process exited before listening (code ${code}, signal ${signal})`);
    void exited.then(onEarlyExit);

    if (child.stdout === null) {
      failStart("no stdout pipe");
      return;
    }
    // readline keeps draining stdout after start-up, so the child never blocks on a full pipe.
    const reader = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    reader.on("line", (line) => {
      lines.push(line);
      if (settled) return;
      const message = logMessage(line);
      if (message?.startsWith(LISTENING) === true) {
        settled = true;
        clearTimeout(timer);
        resolveUrl(message.slice(LISTENING.length).trim().replace(/\/$/, ""));
      }
    });
  });

  const stop = async (
    signal: NodeJS.Signals = "SIGTERM",
    timeoutMs: number = DEFAULT_STOP_TIMEOUT_MS,
  ): Promise<ExitResult> => {
    if (isRunning(child)) child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolveTimeout) => {
      timer = setTimeout(() => resolveTimeout("timeout"), timeoutMs);
    });
    const outcome = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    if (outcome === "timeout") {
      child.kill("SIGKILL");
      await exited;
      throw new Error(
        `the server did not exit within ${timeoutMs} ms of ${signal}; it was killed\n--- stderr ---\n${stderrText}`,
      );
    }
    return outcome;
  };

  return {
    url,
    port: Number(new URL(url).port),
    child,
    stderr: () => stderrText,
    stdoutLines: () => [...lines],
    async waitForStdout(done, timeoutMs = 5_000) {
      const giveUpAt = Date.now() + timeoutMs;
      while (!done([...lines]) && Date.now() < giveUpAt) await sleep(25);
      return [...lines];
    },
    exited,
    stop,
    kill: () => stop("SIGKILL"),
  };
}

/** SIGKILLs every server this worker started that is still running; for afterEach/afterAll. */
export async function killLeftoverServers(): Promise<void> {
  const leftovers = [...running];
  await Promise.all(
    leftovers.map(
      (child) =>
        new Promise<void>((done) => {
          if (!isRunning(child)) {
            done();
            return;
          }
          child.once("close", () => done());
          child.kill("SIGKILL");
        }),
    ),
  );
}

function logMessage(line: string): string | undefined {
  try {
    const entry: unknown = JSON.parse(line);
    if (typeof entry === "object" && entry !== null && "msg" in entry) {
      return typeof entry.msg === "string" ? entry.msg : undefined;
    }
  } catch {
    // not a JSON log line
  }
  return undefined;
}

export interface TempDb {
  dir: string;
  /** A database file path inside `dir` that does not exist yet. */
  path: string;
  /** Removes the directory and everything in it. */
  remove(): void;
}

export function makeTempDb(fileName = "plants.db"): TempDb {
  const dir = mkdtempSync(join(tmpdir(), "plantstore-socket-"));
  return {
    dir,
    path: join(dir, fileName),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * For a suite whose tests each start their own servers: one temporary database folder, removed
 * at the end, and every server a test left running SIGKILLed after it.
 */
export function useServerSuite(): TempDb {
  const db = makeTempDb();
  afterEach(killLeftoverServers);
  afterAll(async () => {
    await killLeftoverServers();
    db.remove();
  });
  return db;
}

/** A spawned server on a fresh database, plus a second connection to check what it stored. */
export interface ServerFixture {
  db: TempDb;
  server: ServerProcess;
  stored: Store;
}

export async function openServerFixture(env: StartOptions["env"] = {}): Promise<ServerFixture> {
  const db = makeTempDb();
  const server = await startServer({ databasePath: db.path, env });
  return { db, server, stored: openSqliteStore(db.path, { data: DATA }) };
}

/** Closes the fixture; the server must stop cleanly (exit 0) on SIGTERM. */
export async function closeServerFixture(fixture: Partial<ServerFixture>): Promise<void> {
  try {
    await fixture.stored?.close();
    if (fixture.server !== undefined) {
      expect(await fixture.server.stop()).toEqual({ code: 0, signal: null });
    }
  } finally {
    await killLeftoverServers();
    fixture.db?.remove();
  }
}
