// The configuration: every setting of settings.ts read once at start-up, checked together,
// and put in the shape the parts of the server take. An invalid value stops the process with
// one line naming the variable (see src/main.ts).
import { ConfigError } from "./error.ts";
import { parseJwt } from "./jwt.ts";
import { publishedValues, readSettings, type SettingValues } from "./settings.ts";

export { JWT_SHAPE, type LogLevel, redactUrl, SETTINGS } from "./settings.ts";
export { ConfigError };

type Env = Readonly<Record<string, string | undefined>>;

export function loadConfig(env: Env, cwd: string = process.cwd()) {
  const s = readSettings(env, cwd);
  return {
    port: s.PORT,
    host: s.HOST,
    logLevel: s.LOG_LEVEL,
    database: databaseOf(s),
    startupTimeoutMs: s.DATABASE_STARTUP_TIMEOUT_MS,
    tokens: s.PLANTSTORE_TOKENS,
    jwt: parseJwt(s, env, cwd),
    tokenRetentionMs: s.PLANTSTORE_TOKEN_RETENTION_DAYS * 86_400_000,
    ops: opsOf(s),
    workers: s.PLANTSTORE_WORKERS,
    publicUrl: s.PLANTSTORE_PUBLIC_URL,
    webhooks: webhooksOf(s),
  };
}

export type Config = ReturnType<typeof loadConfig>;
export type DatabaseConfig = Config["database"];
export type PostgresDatabase = Extract<DatabaseConfig, { engine: "postgres" }>;
export type OpsConfig = Config["ops"];
export type { JwtConfig, JwtKeySource } from "./jwt.ts";

function databaseOf(s: SettingValues) {
  const where = s.DATABASE_URL;
  if (where.engine === "sqlite") return where;
  return {
    ...where,
    /** Most connections one instance opens. */
    poolMax: s.DATABASE_POOL_MAX,
    /** How long opening one connection may take. */
    connectTimeoutMs: s.DATABASE_CONNECT_TIMEOUT_MS,
    /** An idle connection is closed after this long. */
    idleTimeoutMs: s.DATABASE_IDLE_TIMEOUT_MS,
    /** A write that has not committed by then (queueing for a connection included) gets 503. */
    queryTimeoutMs: s.DATABASE_QUERY_TIMEOUT_MS,
  };
}

/** The webhook deliverer's settings (src/webhooks/deliverer.ts). */
function webhooksOf(s: SettingValues) {
  if (s.PLANTSTORE_WEBHOOK_LEASE_MS <= s.PLANTSTORE_WEBHOOK_TIMEOUT_MS) {
    throw new ConfigError(
      `PLANTSTORE_WEBHOOK_LEASE_MS (${s.PLANTSTORE_WEBHOOK_LEASE_MS}) must exceed PLANTSTORE_WEBHOOK_TIMEOUT_MS (${s.PLANTSTORE_WEBHOOK_TIMEOUT_MS})`,
    );
  }
  return {
    timeoutMs: s.PLANTSTORE_WEBHOOK_TIMEOUT_MS,
    retryScheduleMs: s.PLANTSTORE_WEBHOOK_RETRY_SCHEDULE,
    retentionMs: s.PLANTSTORE_WEBHOOK_RETENTION_DAYS * 86_400_000,
    allowPrivate: s.PLANTSTORE_WEBHOOK_ALLOW_PRIVATE,
    send: s.PLANTSTORE_WEBHOOK_SEND,
    leaseMs: s.PLANTSTORE_WEBHOOK_LEASE_MS,
    concurrency: s.PLANTSTORE_WEBHOOK_CONCURRENCY,
    endpointConcurrency: s.PLANTSTORE_WEBHOOK_ENDPOINT_CONCURRENCY,
  };
}

/** Running in production: probes, metrics, limits, timeouts, CORS, shutdown. */
function opsOf(s: SettingValues) {
  if (s.PLANTSTORE_REQUEST_TIMEOUT_MS < s.PLANTSTORE_HEADERS_TIMEOUT_MS) {
    throw new ConfigError(
      `PLANTSTORE_REQUEST_TIMEOUT_MS (${s.PLANTSTORE_REQUEST_TIMEOUT_MS}) must not be shorter than PLANTSTORE_HEADERS_TIMEOUT_MS (${s.PLANTSTORE_HEADERS_TIMEOUT_MS})`,
    );
  }
  return {
    metricsToken: s.PLANTSTORE_METRICS_TOKEN,
    tokenRateLimit: s.PLANTSTORE_TOKEN_RATE_LIMIT,
    authFailureLimit: s.PLANTSTORE_AUTH_FAILURE_LIMIT,
    trustProxy: s.PLANTSTORE_TRUST_PROXY,
    corsOrigins: s.PLANTSTORE_CORS_ORIGINS,
    headersTimeoutMs: s.PLANTSTORE_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: s.PLANTSTORE_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: s.PLANTSTORE_KEEPALIVE_TIMEOUT_MS,
    sendTimeoutMs: s.PLANTSTORE_SEND_TIMEOUT_MS,
    closeTimeoutMs: s.PLANTSTORE_CLOSE_TIMEOUT_MS,
    maxConnections: s.PLANTSTORE_MAX_CONNECTIONS,
    maxConnectionsPerAddress: s.PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS,
    maxEventLoopDelayMs: s.PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS,
    shutdownTimeoutMs: s.PLANTSTORE_SHUTDOWN_TIMEOUT_MS,
    maxWebhookEndpoints: s.PLANTSTORE_WEBHOOK_MAX_ENDPOINTS,
    /** The limits and deadlines the published document states, as it states them. */
    published: publishedValues(s),
  };
}

/** The operating settings with nothing set: what an app built without them gets. */
export const defaultOpsConfig = (): OpsConfig => opsOf(readSettings({}, process.cwd()));
