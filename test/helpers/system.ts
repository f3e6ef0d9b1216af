// What the cluster suites (test/cluster, npm run test:cluster) need from the machine: root,
// to run Debian's postgresql-common and PgBouncer as the postgres user, and those programs.
// Missing, the suites are skipped with the reason, or fail with it when CI requires them
// (PLANTSTORE_REQUIRE_CLUSTER=1).
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createServer } from "node:net";

/** The newest PostgreSQL major version installed by Debian's packages, e.g. "15". */
export const PG_VERSION =
  readdirSafe("/usr/lib/postgresql")
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))[0] ?? "";

const PROGRAMS = [
  "/usr/bin/pg_createcluster",
  "/usr/bin/pg_ctlcluster",
  "/usr/bin/pg_dropcluster",
  `/usr/lib/postgresql/${PG_VERSION}/bin/pg_basebackup`,
  "/usr/sbin/runuser",
  "/usr/sbin/pgbouncer",
];

/** Why the cluster suites cannot run here, or undefined when they can. */
export function clusterSuiteMissing(): string | undefined {
  if (process.getuid?.() !== 0) return "they must run as root (they run programs as postgres)";
  if (PG_VERSION === "") return "no PostgreSQL server package is installed";
  const missing = PROGRAMS.filter((path) => !existsSync(path));
  if (missing.length > 0) return `missing ${missing.join(", ")}`;
  return undefined;
}

/** True when the suite should be skipped; throws instead when CI requires it to run. */
export function skipClusterSuite(): boolean {
  const missing = clusterSuiteMissing();
  if (missing === undefined) return false;
  const notice = `the cluster suites cannot run: ${missing}`;
  if (process.env["PLANTSTORE_REQUIRE_CLUSTER"] === "1") {
    throw new Error(`PLANTSTORE_REQUIRE_CLUSTER=1 but ${notice}`);
  }
  process.stdout.write(`\n  ${notice}; skipped\n\n`);
  return true;
}

/** Runs a program to its end (at most `timeoutMs`); rejects with its stderr when it fails. */
export function run(command: string, args: readonly string[], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new Error(`${command} ${args.join(" ")} failed: ${error.message}\n${stderr}`));
    });
  });
}

const endings: (() => void)[] = [];
let watching = false;

/**
 * Runs `cleanUp` (synchronous) when the test process ends, however: an exit, or the SIGTERM
 * vitest ends its workers with (on which Node exits without an "exit" event), after which
 * the signal ends the process as it would have.
 */
export function whenTestProcessEnds(cleanUp: () => void): void {
  endings.push(cleanUp);
  if (watching) return;
  watching = true;
  const runAll = () => {
    for (const end of endings.splice(0)) end();
  };
  process.once("exit", runAll);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      runAll();
      process.kill(process.pid, signal);
    });
  }
}

/** A TCP port nobody listens on just now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

function readdirSafe(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/** Whether a process of this pid is still running (signal 0 only checks). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
