// PgBouncer as Debian ships it (/usr/sbin/pgbouncer), run by a test with files of its own (ini,
// auth file, pid and log) in a temporary folder, on a port of its own, in transaction mode and
// otherwise with its defaults: no ignore_startup_parameters, no prepared statement support.
// Stopped when the test is done, or when its process exits.
import { type ChildProcess, spawn } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postgresUser } from "./clusters.ts";
import { sleep } from "./load.ts";
import { freePort, whenTestProcessEnds } from "./system.ts";

export interface PgBouncer {
  port: number;
  /** DATABASE_URL for `database` through PgBouncer, with the password its auth file holds. */
  url(database: string): string;
  /** Its log so far. */
  log(): string;
  stop(): Promise<void>;
}

const USER = "postgres";
const PASSWORD = "bouncer-test-password";
const running = new Set<ChildProcess>();
whenTestProcessEnds(() => {
  for (const child of running) child.kill("SIGKILL");
});

/** PgBouncer in front of the PostgreSQL server at `target`, every database name passed on. */
export async function startPgBouncer(target: { host: string; port: number }): Promise<PgBouncer> {
  const dir = mkdtempSync(join(tmpdir(), "plantstore-pgbouncer-"));
  const port = await freePort();
  const ini = join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=${target.host} port=${target.port}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = scram-sha-256",
      `auth_file = ${join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      `pidfile = ${join(dir, "pgbouncer.pid")}`,
      `logfile = ${join(dir, "pgbouncer.log")}`,
      "",
    ].join("\n"),
  );
  writeFileSync(join(dir, "userlist.txt"), `"${USER}" "${PASSWORD}"\n`);
  // It switches to postgres before it opens its log and pid files.
  const { uid, gid } = postgresUser();
  for (const path of [dir, ini, join(dir, "userlist.txt")]) chownSync(path, uid, gid);

  const child = spawn("/usr/sbin/pgbouncer", ["-u", "postgres", ini], { stdio: "ignore" });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const log = () => {
    try {
      return readFileSync(join(dir, "pgbouncer.log"), "utf8");
    } catch {
      return "";
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(5_000)]);
      child.kill("SIGKILL");
    }
    running.delete(child);
    rmSync(dir, { recursive: true, force: true });
  };
  for (let tries = 0; !(await accepts(port)); tries++) {
    if (tries >= 100) {
      const text = log();
      await stop();
      throw new Error(`PgBouncer did not listen on ${port} within 10 s; its log:\n${text}`);
    }
    await sleep(100);
  }
  return {
    port,
    url: (database) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    log,
    stop,
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
