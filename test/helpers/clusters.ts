// PostgreSQL clusters of a test's own, made as Debian's postgresql-common makes them
// (pg_createcluster; a standby with pg_basebackup), to fail over. Every one is dropped
// (pg_dropcluster --stop) when the test is done, when the test process exits however it ends,
// and, should both have been missed (the process was killed), by the next run.
import { execFileSync } from "node:child_process";
import { appendFileSync, chownSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import postgres from "postgres";
import { sleep } from "./load.ts";
import { freePort, isAlive, PG_VERSION, run, whenTestProcessEnds } from "./system.ts";

export interface Cluster {
  name: string;
  port: number;
  /** A URL for `database` on this cluster, as postgres, over TCP (trust: the cluster is ours). */
  url(database?: string): string;
  /** One statement, on a connection of its own. */
  query<T extends object>(statement: string, database?: string): Promise<T[]>;
  /** SIGKILL to the postmaster: the server is gone at once, as in a crash. */
  kill(): void;
  /** Promotes a standby, and waits until it takes writes. */
  promote(): Promise<void>;
  drop(): Promise<void>;
}

const PREFIX = "plantstore_t_";
const created = new Set<string>();
let made = 0;

// Last resort: the clusters go with the test process, whatever ends it.
whenTestProcessEnds(() => {
  for (const name of created) dropNow(name);
});

/** Drops every cluster this process made and has not dropped yet: for afterAll. */
export async function dropClusters(): Promise<void> {
  for (const name of [...created]) {
    await dropCluster(name);
  }
}

async function dropCluster(name: string): Promise<void> {
  await run("pg_dropcluster", ["--stop", PG_VERSION, name]).catch(async () => {
    // A killed server leaves its pid file; stop what is left of it, then drop.
    await run("pg_ctlcluster", [
      "--skip-systemctl-redirect",
      PG_VERSION,
      name,
      "stop",
      "-m",
      "immediate",
    ]).catch(() => undefined);
    await run("pg_dropcluster", [PG_VERSION, name]);
  });
  created.delete(name);
}

function dropNow(name: string): void {
  try {
    execFileSync("pg_dropcluster", ["--stop", PG_VERSION, name], { stdio: "ignore" });
  } catch {
    // Already gone, or stopped by a kill: nothing more can be done from an exit handler.
  }
}

/** Drops the clusters earlier runs left behind: those whose test process is no longer alive. */
export function dropLeftoverClusters(): void {
  let names: string[] = [];
  try {
    names = readdirSync(`/etc/postgresql/${PG_VERSION}`);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^plantstore_t_(\d+)_\d+$/.exec(name)?.[1]);
    if (Number.isInteger(pid) && !isAlive(pid)) dropNow(name);
  }
}

const dataDirectory = (name: string) => `/var/lib/postgresql/${PG_VERSION}/${name}`;

/** A cluster made and not yet started: its data directory may still be replaced. */
interface NewCluster extends Cluster {
  start(): Promise<void>;
}

async function newCluster(settings: Readonly<Record<string, string>>): Promise<NewCluster> {
  const name = `${PREFIX}${process.pid}_${++made}`;
  const port = await freePort();
  // Quoted as each needs by pg_createcluster; listen_addresses keeps its default, localhost.
  const options = Object.entries(settings).flatMap(([key, value]) => ["-o", `${key}=${value}`]);
  created.add(name);
  await run("pg_createcluster", [
    PG_VERSION,
    name,
    "-p",
    String(port),
    "--start-conf=manual",
    ...options,
    "--",
    "--auth=trust",
  ]);
  const url = (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const ctl = (...args: string[]) =>
    run("pg_ctlcluster", ["--skip-systemctl-redirect", PG_VERSION, name, ...args]);
  return {
    name,
    port,
    url,
    async query<T extends object>(statement: string, database = "postgres") {
      const sql = postgres(url(database), { max: 1, onnotice: () => undefined });
      try {
        return [...(await sql.unsafe(statement))] as T[];
      } finally {
        await sql.end({ timeout: 1 });
      }
    },
    kill() {
      const pid = Number(
        readFileSync(`${dataDirectory(name)}/postmaster.pid`, "utf8").split("\n")[0],
      );
      process.kill(pid, "SIGKILL");
    },
    async promote() {
      await ctl("promote");
    },
    drop: () => dropCluster(name),
    async start() {
      await ctl("start");
    },
  };
}

/** A primary, started; `settings` go to its postgresql.conf. */
export async function createPrimary(
  settings: Readonly<Record<string, string>> = {},
): Promise<Cluster> {
  const cluster = await newCluster(settings);
  await startOrDrop(cluster);
  return cluster;
}

/**
 * A standby of `primary`, copied with pg_basebackup and streaming from `via` (a relay the test
 * can cut), started. Its application_name is its cluster name, for synchronous_standby_names.
 */
export async function createStandby(primary: Cluster, via: { port: number }): Promise<Cluster> {
  const standby = await newCluster({});
  try {
    await copyPrimary(primary, standby, via);
  } catch (error) {
    await standby.drop();
    throw error;
  }
  await startOrDrop(standby);
  return standby;
}

async function startOrDrop(cluster: NewCluster): Promise<void> {
  try {
    await cluster.start();
  } catch (error) {
    await cluster.drop();
    throw error;
  }
}

/** Replaces `standby`'s data directory with a copy of the primary's, set to stream from it. */
async function copyPrimary(
  primary: Cluster,
  standby: Cluster,
  via: { port: number },
): Promise<void> {
  const data = dataDirectory(standby.name);
  const { uid, gid } = postgresUser();
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data, { mode: 0o700 });
  chownSync(data, uid, gid);
  await run("runuser", [
    "-u",
    "postgres",
    "--",
    `/usr/lib/postgresql/${PG_VERSION}/bin/pg_basebackup`,
    "-h",
    "127.0.0.1",
    "-p",
    String(primary.port),
    "-U",
    "postgres",
    "-D",
    data,
    "-X",
    "stream",
    "-c",
    "fast",
    "-R",
  ]);
  // After the one pg_basebackup wrote: the later line is the one that counts.
  appendFileSync(
    `${data}/postgresql.auto.conf`,
    `primary_conninfo = 'host=127.0.0.1 port=${via.port} user=postgres application_name=${standby.name}'\n`,
  );
}

/** Makes `standby` the primary's synchronous standby, and waits until it is. */
export async function requireSynchronousStandby(primary: Cluster, standby: Cluster): Promise<void> {
  await primary.query(`ALTER SYSTEM SET synchronous_standby_names = '${standby.name}'`);
  await primary.query("SELECT pg_reload_conf()");
  await waitForReplication(primary, standby, "sync");
}

/** Waits until `standby` streams from the primary, with that sync_state. */
export async function waitForReplication(
  primary: Cluster,
  standby: Cluster,
  state: "sync" | "async",
): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const rows = await primary.query<{ sync_state: string }>(
      `SELECT sync_state FROM pg_stat_replication WHERE application_name = '${standby.name}'`,
    );
    if (rows[0]?.sync_state === state) return;
    await sleep(100);
  }
  throw new Error(`${standby.name} is not a ${state} standby of ${primary.name} after 20 s`);
}

/** The postgres user's ids, which its files must carry. */
export function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }));
  return { uid: id("-u"), gid: id("-g") };
}
