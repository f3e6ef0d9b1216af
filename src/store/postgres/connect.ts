// How the PostgreSQL pool is opened, so that one DATABASE_URL works straight to PostgreSQL,
// through PgBouncer in transaction mode, and across a failover (docs/scaling-out.md says
// what each choice was measured or tested against).
import { connect as connectTcp, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import postgres, { type Options, type PostgresType, type Sql } from "postgres";
import type { PostgresDatabase } from "../../config/config.ts";
import type { PostgresAddress } from "../../config/postgres-url.ts";

/** The client with int8 mapped to BigInt, which is what lets a bigint be a parameter. */
export type PostgresClient = Sql<{ bigint: bigint }>;

export interface ConnectOptions {
  /**
   * Through a pooler that lends a server connection per transaction (PgBouncer's transaction
   * mode): no prepared statements, which live on one server connection, and no settings at
   * connection time, which PgBouncer refuses (statement_timeout goes with each transaction
   * and each read instead, deadlines.ts).
   */
  pooled: boolean;
  /**
   * One connection for start-up work (migrations, settings, the pooler check), which sends
   * no arrays, so it skips postgres.js's lookup of array types (see openPostgresStore).
   */
  startup?: boolean;
  /**
   * The steps of a migration (migration-steps.ts): no statement_timeout, since an index on a big
   * table takes minutes to build; each step bounds its own waits for locks instead.
   */
  unbounded?: boolean;
}

// postgres.js waits before reconnecting 3× longer after each failure, up to 20 s: requests
// queued during an outage then waited for that timer long after the database was back. A
// second at most keeps them waiting no longer than that, at a cost of a refused connection
// a second per waiting pool slot while the database is away.
const MAX_RECONNECT_DELAY_S = 1;
const reconnectDelay = (failures: number): number =>
  (0.5 + Math.random() / 2) * Math.min(3 ** failures / 100, MAX_RECONNECT_DELAY_S);

// With several hosts postgres.js tries the next one at once, with no delay at all, for as long
// as none will do (seen: about two thousand attempts a second; against a standby, each one a
// server process started and ended). Attempts are paced: a pool may fill at once, then this
// many a second.
const HOST_ATTEMPTS_PER_SECOND = 10;

type ClientOptions = Omit<Options<{ bigint: PostgresType<bigint> }>, "host" | "port"> & {
  // What postgres.js reads that its types do not list, or list narrower.
  host?: string[];
  port?: number[];
  socket?: () => Promise<Socket>;
};

export function connectPostgres(db: PostgresDatabase, how: ConnectOptions): PostgresClient {
  ignoreLostLookups();
  const max = how.startup === true ? 1 : db.poolMax;
  const options: ClientOptions = {
    max,
    fetch_types: how.startup !== true,
    connect_timeout: db.connectTimeoutMs / 1000,
    idle_timeout: db.idleTimeoutMs / 1000,
    // int8 both ways as BigInt: an id never passes through a double.
    types: { bigint: postgres.BigInt },
    // The server cancels a statement stuck past the deadline (a lock, a stall), so a request
    // fails with a definite outcome rather than an unknown one.
    connection:
      how.pooled || how.unbounded === true
        ? { application_name: "plantstore" }
        : { application_name: "plantstore", statement_timeout: db.queryTimeoutMs },
    backoff: reconnectDelay,
    onnotice: () => undefined,
  };
  // postgres.js's `read-write` looks at default_transaction_read_only only, which a standby
  // leaves off: it stays on a PostgreSQL 14+ standby. Its `primary` asks what a standby
  // differs in (in_hot_standby, or pg_is_in_recovery() before 14).
  if (db.targetSessionAttrs !== "any") options.target_session_attrs = "primary";
  if (how.pooled) options.prepare = false;
  if (db.hosts.length > 1) {
    options.host = db.hosts.map((address) => address.host);
    options.port = db.hosts.map((address) => address.port);
    options.socket = pacedConnections(db.hosts, max);
  }
  return postgres(
    db.driverUrl,
    options as unknown as Options<{ bigint: PostgresType<bigint> }>,
  ) as unknown as PostgresClient;
}

// What postgres.js asks a new connection by itself (array types; whether it is a standby, on
// PostgreSQL before 14 or through a pooler), with nobody awaiting the answer.
const DRIVER_LOOKUPS = /pg_catalog\.pg_type|pg_is_in_recovery/;
let ignoring = false;

/**
 * A connection lost (or refused on its way back) while postgres.js looks something up for
 * itself rejects a promise nobody awaits, and an unhandled rejection ends the process. Those
 * are ignored: the connection is the driver's to reopen. Every other one still ends it.
 */
function ignoreLostLookups(): void {
  if (ignoring) return;
  ignoring = true;
  process.on("unhandledRejection", (reason) => {
    const { query } = (reason ?? {}) as { query?: unknown };
    if (typeof query === "string" && DRIVER_LOOKUPS.test(query)) return;
    throw reason;
  });
}

/**
 * True when the server that answers is not the one the connection was opened with: a pooler
 * hands out cancel keys of its own (BackendKeyData), so the key's process id is not the
 * answering backend's.
 */
export async function isThroughPooler(sql: PostgresClient): Promise<boolean> {
  const rows = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  return rows.state.pid !== rows[0]?.pid;
}

/**
 * Bounds the statements of a start-up client (one connection: migrations, the settings) on
 * the server: a session setting straight to PostgreSQL; through a pooler, where the setting
 * would stay on a server connection other clients get next, they are left to the client's
 * deadline.
 */
export async function boundStartup(
  sql: PostgresClient,
  pooled: boolean,
  timeoutMs: number,
): Promise<void> {
  if (!pooled) await sql.unsafe(`SET statement_timeout = ${Math.floor(timeoutMs)}`);
}

/** Opens a socket to each host in turn, every attempt after the first burst paced. */
function pacedConnections(
  hosts: readonly PostgresAddress[],
  poolMax: number,
): () => Promise<Socket> {
  const burst = poolMax * hosts.length;
  let allowance = burst;
  let countedAt = performance.now();
  let turn = Promise.resolve();
  let next = 0;
  const pace = async (): Promise<void> => {
    const now = performance.now();
    allowance = Math.min(burst, allowance + ((now - countedAt) / 1000) * HOST_ATTEMPTS_PER_SECOND);
    countedAt = now;
    if (allowance < 1) {
      await sleep(((1 - allowance) / HOST_ATTEMPTS_PER_SECOND) * 1000, undefined, { ref: false });
      allowance = 1;
      countedAt = performance.now();
    }
    allowance -= 1;
  };
  return async () => {
    turn = turn.then(pace);
    await turn;
    const address = hosts[next++ % hosts.length] as PostgresAddress;
    // Returned while connecting: postgres.js writes once it is open, and its own handlers see
    // a refusal. It names the TLS server by the socket's host.
    return Object.assign(connectTcp(address), { host: address.host, port: address.port });
  };
}
