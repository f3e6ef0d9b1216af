// `npm start` end to end: npm, the shell it runs the script in, and the server. A SIGTERM sent
// to npm (as a process manager or container runtime sends it) must stop the server gracefully
// and leave no process behind: the script `exec`s node, so the shell cannot drop the signal.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import { plantJson, TOKEN, uniqueId } from "../helpers/app.ts";
import { makeTempDb, REPO_ROOT } from "../helpers/server-process.ts";
import { expectPlantAnswer, post, waitUntilRefused } from "../helpers/socket-http.ts";
import { DATA } from "../helpers/stores.ts";

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const LISTENING = "Server listening at ";

const db = makeTempDb();

interface Started {
  npm: ChildProcess;
  /** Resolves once npm has exited and its output is drained. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The server's JSON log lines so far (npm's banner and other text lines are left out). */
  logLines(): Record<string, unknown>[];
  stderr(): string;
}

/** Every process this file started: npm's process group, and the server's pid once known. */
const spawned: { npm: ChildProcess; serverPid?: number }[] = [];

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
};

function killLeftovers(): void {
  for (const entry of spawned.splice(0)) {
    const { npm, serverPid } = entry;
    // npm is the leader of its own process group (detached): that takes the shell and node too.
    if (npm.pid !== undefined) {
      try {
        process.kill(-npm.pid, "SIGKILL");
      } catch {
        // the group is gone already
      }
    }
    if (serverPid !== undefined && isAlive(serverPid)) process.kill(serverPid, "SIGKILL");
  }
}
process.once("exit", killLeftovers);
afterEach(killLeftovers);
afterAll(() => {
  killLeftovers();
  db.remove();
});

async function npmStart(): Promise<{ started: Started; url: string; serverPid: number }> {
  const npm = spawn("npm", ["start"], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      PLANTSTORE_TOKENS: TOKEN,
      DATABASE_URL: `sqlite:${db.path}`,
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const entry: { npm: ChildProcess; serverPid?: number } = { npm };
  spawned.push(entry);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    npm.once("close", (code, signal) => done({ code, signal }));
  });
  let stderr = "";
  npm.stderr?.setEncoding("utf8");
  npm.stderr?.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const logLines: Record<string, unknown>[] = [];
  const otherLines: string[] = [];

  const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no "${LISTENING}..." line within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`npm exited before the server listened (code ${code}, signal ${signal})`));
    });
    if (npm.stdout === null) throw new Error("no stdout pipe");
    createInterface({ input: npm.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on(
      "line",
      (line) => {
        const parsed = parseLogLine(line);
        if (parsed === undefined) {
          otherLines.push(line);
          return;
        }
        logLines.push(parsed);
        if (typeof parsed["msg"] === "string" && parsed["msg"].startsWith(LISTENING)) {
          clearTimeout(timer);
          resolve(parsed);
        }
      },
    );
  }).catch((error: unknown) => {
    throw new Error(
      `${(error as Error).message}\n--- stderr ---\n${stderr}\n--- stdout ---\n${otherLines.join("\n")}`,
    );
  });

  const serverPid = listening["pid"];
  if (typeof serverPid !== "number") throw new Error("the listening line has no pid");
  entry.serverPid = serverPid;
  const url = String(listening["msg"]).slice(LISTENING.length).trim().replace(/\/$/, "");
  return {
    started: { npm, exited, logLines: () => [...logLines], stderr: () => stderr },
    url,
    serverPid,
  };
}

function parseLogLine(line: string): Record<string, unknown> | undefined {
  try {
    const entry: unknown = JSON.parse(line);
    return typeof entry === "object" && entry !== null && !Array.isArray(entry)
      ? (entry as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** npm's exit, or a rejection if it takes longer than `timeoutMs`. */
async function exitWithin(
  started: Started,
  timeoutMs: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`npm did not exit within ${timeoutMs} ms\n--- stderr ---\n${started.stderr()}`),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([started.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe("npm start", () => {
  test("when npm start is sent SIGTERM after serving a create, then npm exits 0, the server logs 'stopped', the port refuses connections, no server process remains and the plant is stored", async () => {
    const { started, url, serverPid } = await npmStart();
    expect(started.npm.pid).toBeDefined();
    const npmPid = started.npm.pid ?? 0;
    expect(isAlive(serverPid)).toBe(true);

    const id = uniqueId();
    expectPlantAnswer(await post(url, plantJson(id, "npm start fern", "e2e")), {
      name: "npm start fern",
      tag: "e2e",
    });

    process.kill(npmPid, "SIGTERM");
    const exit = await exitWithin(started, STOP_TIMEOUT_MS);

    expect(exit, started.stderr()).toEqual({ code: 0, signal: null });
    const messages = started.logLines().map((entry) => entry["msg"]);
    expect(messages).toContain("stopped");
    expect(messages.indexOf("stopped")).toBe(messages.length - 1);
    await waitUntilRefused(url, 5_000);
    expect(isAlive(serverPid)).toBe(false);

    const store = openSqliteStore(db.path, { data: DATA });
    try {
      expect(await store.resources.plants.get(id)).toStrictEqual({
        id,
        name: "npm start fern",
        tag: "e2e",
      });
    } finally {
      await store.close();
    }
  });
});
