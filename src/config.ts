// Settings come from the environment only, are checked once at start-up, and an invalid
// value stops the process with one line naming the variable (see src/main.ts).
import { isIP } from "node:net";
import { isAbsolute, resolve } from "node:path";
import { ConfigError } from "./config-error.ts";
import { parseJwt } from "./config-jwt.ts";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export interface SqliteDatabase {
  engine: "sqlite";
  /** Absolute path of the SQLite file. */
  path: string;
}

export interface PostgresDatabase {
  engine: "postgres";
  /** The postgres:// or postgresql:// URL as given (it may carry a password). */
  url: string;
  /** Most connections one instance opens. */
  poolMax: number;
  /** How long opening one connection may take. */
  connectTimeoutMs: number;
  /** An idle connection is closed after this long. */
  idleTimeoutMs: number;
  /** A create that has not committed by then (queueing for a connection included) gets 503. */
  queryTimeoutMs: number;
}

export type DatabaseConfig = SqliteDatabase | PostgresDatabase;

/** Where the keys that sign accepted JWTs come from. */
export type JwtKeySource =
  | { kind: "jwks-file"; path: string }
  | { kind: "jwks-url"; url: string }
  | { kind: "public-key-file"; path: string }
  | { kind: "hs256-secret"; secret: string };

export interface JwtConfig {
  issuer: string;
  audience: string;
  keySource: JwtKeySource;
  /** JWS algorithms accepted; never "none", never HMAC mixed with public-key ones. */
  algorithms: readonly string[];
  /** Leeway for exp and nbf, in seconds. */
  clockSkewSeconds: number;
}

export interface Config {
  port: number;
  host: string;
  logLevel: LogLevel;
  database: DatabaseConfig;
  /** How long start-up keeps retrying an unreachable database before it gives up. */
  startupTimeoutMs: number;
  /** Static bearer tokens; undefined means managed tokens (and JWTs) only. */
  tokens: readonly string[] | undefined;
  /** JWTs from an identity provider; undefined when not configured. */
  jwt: JwtConfig | undefined;
  /** How long revoked and expired managed tokens are kept before they are purged; 0 keeps them. */
  tokenRetentionMs: number;
  /** Running in production: probes, metrics, limits, timeouts, CORS, shutdown. */
  ops: OpsConfig;
  /** Server processes sharing the port; 1 serves in the starting process itself. */
  workers: number;
  /** The base URL clients use, for the published document; undefined: where it listens. */
  publicUrl: string | undefined;
}

export interface OpsConfig {
  /** The bearer token /metrics requires; undefined leaves /metrics open. */
  metricsToken: string | undefined;
  /** Requests per minute one bearer token may make; 0 disables the limit. */
  tokenRateLimit: number;
  /** Failed authentications per minute one client address may make; 0 disables the limit. */
  authFailureLimit: number;
  /** Fastify's trustProxy: whether, and from whom, X-Forwarded-For is believed. */
  trustProxy: boolean | number | readonly string[];
  /** Exact origins a browser may call from, or "*" for any; empty for none. */
  corsOrigins: readonly string[] | "*";
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** An answer the client has not taken in full within this is abandoned (connection destroyed). */
  sendTimeoutMs: number;
  /** A connection the server has closed is destroyed if the client has not closed it within this. */
  closeTimeoutMs: number;
  maxConnections: number;
  /** Open connections one client address may hold; 0 for no cap. */
  maxConnectionsPerAddress: number;
  /** Event-loop delay past which requests get 503; 0 disables the check. */
  maxEventLoopDelayMs: number;
  /** How long a graceful shutdown may take before the process exits 1 anyway. */
  shutdownTimeoutMs: number;
}

export { ConfigError };

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS: readonly LogLevel[] = [
  "fatal",
  "error",
  "warn",
  "info",
  "debug",
  "trace",
  "silent",
];
// RFC 6750 b64token: what a bearer token may contain on the wire.
const TOKEN_SYNTAX = /^[A-Za-z0-9\-._~+/]+=*$/;
const MIN_TOKEN_LENGTH = 16;
/** Three base64url segments: a JWS in compact serialisation. */
export const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export const DEFAULTS = {
  PORT: "8080",
  HOST: "127.0.0.1",
  LOG_LEVEL: "info",
  DATABASE_URL: "sqlite:./data/plants.db",
  DATABASE_POOL_MAX: "10",
  DATABASE_CONNECT_TIMEOUT_MS: "5000",
  DATABASE_IDLE_TIMEOUT_MS: "30000",
  DATABASE_QUERY_TIMEOUT_MS: "10000",
  DATABASE_STARTUP_TIMEOUT_MS: "30000",
  PLANTSTORE_TOKEN_RETENTION_DAYS: "30",
  PLANTSTORE_TOKEN_RATE_LIMIT: "6000",
  PLANTSTORE_AUTH_FAILURE_LIMIT: "60",
  PLANTSTORE_TRUST_PROXY: "false",
  PLANTSTORE_CORS_ORIGINS: "",
  PLANTSTORE_HEADERS_TIMEOUT_MS: "10000",
  PLANTSTORE_REQUEST_TIMEOUT_MS: "30000",
  PLANTSTORE_KEEPALIVE_TIMEOUT_MS: "72000",
  PLANTSTORE_SEND_TIMEOUT_MS: "30000",
  PLANTSTORE_CLOSE_TIMEOUT_MS: "5000",
  PLANTSTORE_MAX_CONNECTIONS: "1000",
  PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS: "500",
  PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS: "1000",
  PLANTSTORE_SHUTDOWN_TIMEOUT_MS: "10000",
  PLANTSTORE_WORKERS: "1",
} as const;

/** One environment variable: what `--help`, `--print-config` and the README list. */
export interface SettingInfo {
  name: string;
  /** The value used when the variable is unset; undefined when unset has a meaning of its own. */
  default: string | undefined;
  /** How the current value is masked when printed. */
  secret?: "url" | "token";
  meaning: string;
}

/** Every setting loadConfig reads, in the README's order (a unit test keeps the two in step). */
export const SETTINGS: readonly SettingInfo[] = [
  { name: "PORT", default: DEFAULTS.PORT, meaning: "TCP port (0 picks a free one)" },
  { name: "HOST", default: DEFAULTS.HOST, meaning: "address to listen on" },
  { name: "LOG_LEVEL", default: DEFAULTS.LOG_LEVEL, meaning: "fatal … trace, or silent" },
  {
    name: "DATABASE_URL",
    default: DEFAULTS.DATABASE_URL,
    secret: "url",
    meaning: "sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE",
  },
  {
    name: "DATABASE_POOL_MAX",
    default: DEFAULTS.DATABASE_POOL_MAX,
    meaning: "PostgreSQL pool size",
  },
  {
    name: "DATABASE_CONNECT_TIMEOUT_MS",
    default: DEFAULTS.DATABASE_CONNECT_TIMEOUT_MS,
    meaning: "PostgreSQL: opening one connection",
  },
  {
    name: "DATABASE_IDLE_TIMEOUT_MS",
    default: DEFAULTS.DATABASE_IDLE_TIMEOUT_MS,
    meaning: "PostgreSQL: an idle connection is closed after",
  },
  {
    name: "DATABASE_QUERY_TIMEOUT_MS",
    default: DEFAULTS.DATABASE_QUERY_TIMEOUT_MS,
    meaning: "PostgreSQL: a statement is cancelled after (503)",
  },
  {
    name: "DATABASE_STARTUP_TIMEOUT_MS",
    default: DEFAULTS.DATABASE_STARTUP_TIMEOUT_MS,
    meaning: "PostgreSQL: start-up retries an unreachable database for",
  },
  {
    name: "PLANTSTORE_TOKENS",
    default: undefined,
    secret: "token",
    meaning: "static bearer tokens, comma-separated (unset: managed tokens and JWTs only)",
  },
  {
    name: "PLANTSTORE_TOKEN_RETENTION_DAYS",
    default: DEFAULTS.PLANTSTORE_TOKEN_RETENTION_DAYS,
    meaning: "revoked and expired managed tokens are purged after (0: kept)",
  },
  { name: "PLANTSTORE_JWT_ISSUER", default: undefined, meaning: "JWTs: the required iss" },
  { name: "PLANTSTORE_JWT_AUDIENCE", default: undefined, meaning: "JWTs: the required aud" },
  { name: "PLANTSTORE_JWT_JWKS_FILE", default: undefined, meaning: "JWT keys: a JWKS file" },
  { name: "PLANTSTORE_JWT_JWKS_URL", default: undefined, meaning: "JWT keys: a JWKS URL" },
  {
    name: "PLANTSTORE_JWT_PUBLIC_KEY_FILE",
    default: undefined,
    meaning: "JWT keys: one PEM public key",
  },
  {
    name: "PLANTSTORE_JWT_HS256_SECRET",
    default: undefined,
    secret: "token",
    meaning: "JWT keys: an HS256 secret",
  },
  {
    name: "PLANTSTORE_JWT_ALGORITHMS",
    default: undefined,
    meaning: "accepted alg values (unset: from the key source)",
  },
  { name: "PLANTSTORE_JWT_CLOCK_SKEW_S", default: "30", meaning: "JWTs: leeway for exp and nbf" },
  {
    name: "PLANTSTORE_PUBLIC_URL",
    default: undefined,
    meaning: "base URL in the published document's servers (unset: the listening address)",
  },
  {
    name: "PLANTSTORE_METRICS_TOKEN",
    default: undefined,
    secret: "token",
    meaning: "bearer token GET /metrics requires (unset: /metrics is open)",
  },
  {
    name: "PLANTSTORE_TOKEN_RATE_LIMIT",
    default: DEFAULTS.PLANTSTORE_TOKEN_RATE_LIMIT,
    meaning: "requests per minute per bearer token (0: no limit)",
  },
  {
    name: "PLANTSTORE_AUTH_FAILURE_LIMIT",
    default: DEFAULTS.PLANTSTORE_AUTH_FAILURE_LIMIT,
    meaning: "rejected credentials per minute per client address (0: no limit)",
  },
  {
    name: "PLANTSTORE_TRUST_PROXY",
    default: DEFAULTS.PLANTSTORE_TRUST_PROXY,
    meaning: "believe X-Forwarded-For: false, true, a hop count, or proxy addresses/CIDRs",
  },
  {
    name: "PLANTSTORE_CORS_ORIGINS",
    default: DEFAULTS.PLANTSTORE_CORS_ORIGINS,
    meaning: "origins browsers may call from, comma-separated, or * (empty: none)",
  },
  {
    name: "PLANTSTORE_HEADERS_TIMEOUT_MS",
    default: DEFAULTS.PLANTSTORE_HEADERS_TIMEOUT_MS,
    meaning: "request headers must arrive within (408)",
  },
  {
    name: "PLANTSTORE_REQUEST_TIMEOUT_MS",
    default: DEFAULTS.PLANTSTORE_REQUEST_TIMEOUT_MS,
    meaning: "a whole request must arrive within (408)",
  },
  {
    name: "PLANTSTORE_KEEPALIVE_TIMEOUT_MS",
    default: DEFAULTS.PLANTSTORE_KEEPALIVE_TIMEOUT_MS,
    meaning: "an idle keep-alive connection is closed after",
  },
  {
    name: "PLANTSTORE_SEND_TIMEOUT_MS",
    default: DEFAULTS.PLANTSTORE_SEND_TIMEOUT_MS,
    meaning: "an answer the client has not taken within this is dropped",
  },
  {
    name: "PLANTSTORE_CLOSE_TIMEOUT_MS",
    default: DEFAULTS.PLANTSTORE_CLOSE_TIMEOUT_MS,
    meaning: "a connection the server closed is destroyed after",
  },
  {
    name: "PLANTSTORE_MAX_CONNECTIONS",
    default: DEFAULTS.PLANTSTORE_MAX_CONNECTIONS,
    meaning: "open connections at most; more are closed at once",
  },
  {
    name: "PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS",
    default: DEFAULTS.PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS,
    meaning: "open connections one client address may hold (0: no cap)",
  },
  {
    name: "PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS",
    default: DEFAULTS.PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS,
    meaning: "event-loop delay past which requests get 503 (0: never)",
  },
  {
    name: "PLANTSTORE_SHUTDOWN_TIMEOUT_MS",
    default: DEFAULTS.PLANTSTORE_SHUTDOWN_TIMEOUT_MS,
    meaning: "graceful shutdown deadline; past it the process exits 1",
  },
  {
    name: "PLANTSTORE_WORKERS",
    default: DEFAULTS.PLANTSTORE_WORKERS,
    meaning: "server processes sharing the port (node:cluster); 1 serves in this process",
  },
];

export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  return {
    port: parsePort(env["PORT"] ?? DEFAULTS.PORT),
    host: parseHost(env["HOST"] ?? DEFAULTS.HOST),
    logLevel: parseLogLevel(env["LOG_LEVEL"] ?? DEFAULTS.LOG_LEVEL),
    database: parseDatabase(env, cwd),
    startupTimeoutMs: setting(env, "DATABASE_STARTUP_TIMEOUT_MS", 0, 3_600_000),
    tokens: parseTokens(env["PLANTSTORE_TOKENS"]),
    jwt: parseJwt(env, cwd),
    tokenRetentionMs: setting(env, "PLANTSTORE_TOKEN_RETENTION_DAYS", 0, 36_500) * 86_400_000,
    ops: parseOps(env),
    workers: setting(env, "PLANTSTORE_WORKERS", 1, MAX_WORKERS),
    publicUrl: parsePublicUrl(env["PLANTSTORE_PUBLIC_URL"]),
  };
}

// Each worker holds its own connections and memory; past this, one machine is the wrong size.
const MAX_WORKERS = 64;

/** An http(s) URL with no credentials, query or fragment; a trailing slash is dropped. */
export function parsePublicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const problem = `PLANTSTORE_PUBLIC_URL must be an http:// or https:// URL without credentials, query or fragment, e.g. https://plants.example.com, got "${raw}"`;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(problem);
  }
  const plain = url.username === "" && url.password === "" && url.search === "" && url.hash === "";
  if (!(url.protocol === "http:" || url.protocol === "https:") || !plain || raw.includes("?")) {
    throw new ConfigError(problem);
  }
  let href = url.href;
  while (href.endsWith("/")) href = href.slice(0, -1);
  return href;
}

type NumericSetting = Exclude<
  keyof typeof DEFAULTS,
  | "PORT"
  | "HOST"
  | "LOG_LEVEL"
  | "DATABASE_URL"
  | "PLANTSTORE_TRUST_PROXY"
  | "PLANTSTORE_CORS_ORIGINS"
>;

/** A whole number within [min, max], or the default when unset. */
function setting(env: Env, name: NumericSetting, min: number, max: number): number {
  const raw = env[name] ?? DEFAULTS[name];
  const value = /^\d{1,10}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function parseDatabase(env: Env, cwd: string): DatabaseConfig {
  const raw = (env["DATABASE_URL"] ?? DEFAULTS.DATABASE_URL).trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1];
  switch (scheme?.toLowerCase()) {
    case "sqlite":
      return { engine: "sqlite", path: parseSqlitePath(raw.slice(raw.indexOf(":") + 1), cwd) };
    case "postgres":
    case "postgresql":
      return {
        engine: "postgres",
        url: parsePostgresUrl(raw),
        poolMax: setting(env, "DATABASE_POOL_MAX", 1, 1000),
        connectTimeoutMs: setting(env, "DATABASE_CONNECT_TIMEOUT_MS", 100, 600_000),
        idleTimeoutMs: setting(env, "DATABASE_IDLE_TIMEOUT_MS", 1000, 86_400_000),
        queryTimeoutMs: setting(env, "DATABASE_QUERY_TIMEOUT_MS", 100, 600_000),
      };
    default: {
      const what = scheme === undefined ? `"${raw}"` : `the "${scheme}:" scheme`;
      throw new ConfigError(
        `DATABASE_URL must be sqlite:PATH or postgres://USER@HOST:PORT/DATABASE, got ${what}`,
      );
    }
  }
}

function parsePostgresUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("DATABASE_URL is not a valid postgres:// URL");
  }
  if (url.hostname === "" || url.pathname.length <= 1) {
    throw new ConfigError(
      `DATABASE_URL must name a host and a database, e.g. postgres://postgres@127.0.0.1:5432/plants, got ${redactUrl(raw)}`,
    );
  }
  return raw;
}

/** The URL with any password replaced, for messages and logs. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password !== "") url.password = "***";
    return url.toString();
  } catch {
    return "(unparseable URL)";
  }
}

function parsePort(raw: string): number {
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
}

function parseHost(raw: string): string {
  const host = raw.trim();
  if (host === "" || /[\s/]/.test(host)) {
    throw new ConfigError(`HOST must be a host name or IP address, got "${raw}"`);
  }
  return host;
}

function parseLogLevel(raw: string): LogLevel {
  const level = LOG_LEVELS.find((l) => l === raw.trim().toLowerCase());
  if (level === undefined) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${raw}"`);
  }
  return level;
}

function parseSqlitePath(rest: string, cwd: string): string {
  // sqlite:///abs/path and sqlite://rel/path are common spellings of the same thing.
  const path = rest.replace(/^\/\/(?=\/)/, "").replace(/^\/\/(?!\/)/, "");
  if (path === "") {
    throw new ConfigError(
      "DATABASE_URL must name a file after sqlite:, e.g. sqlite:./data/plants.db",
    );
  }
  if (path === ":memory:" || path.startsWith("file:")) {
    throw new ConfigError(
      `DATABASE_URL must be a file path; "${path}" would not keep plants across restarts`,
    );
  }
  return isAbsolute(path) ? path : resolve(cwd, path);
}

function parseTokens(raw: string | undefined): readonly string[] | undefined {
  if (raw === undefined) return undefined;
  const tokens = raw
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  if (tokens.length === 0) {
    throw new ConfigError("PLANTSTORE_TOKENS is set but holds no token; unset it to generate one");
  }
  tokens.forEach((token, i) => {
    if (!isWellFormedToken(token)) {
      throw new ConfigError(
        `PLANTSTORE_TOKENS entry ${i + 1} must be at least ${MIN_TOKEN_LENGTH} characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750)`,
      );
    }
    // How a token is checked follows from its shape (src/auth/authenticator.ts).
    if (token.startsWith("ps_") || JWT_SHAPE.test(token)) {
      throw new ConfigError(
        `PLANTSTORE_TOKENS entry ${i + 1} looks like a managed token (ps_…) or a JWT (three dot-separated parts); choose another`,
      );
    }
  });
  return tokens;
}

const isWellFormedToken = (token: string): boolean =>
  TOKEN_SYNTAX.test(token) && token.length >= MIN_TOKEN_LENGTH;

// ---- Operating settings (README "Operating") ----

/** The operating settings with nothing set: what an app built without them gets. */
export const defaultOpsConfig = (): OpsConfig => parseOps({});

function parseOps(env: Env): OpsConfig {
  const headersTimeoutMs = setting(env, "PLANTSTORE_HEADERS_TIMEOUT_MS", 1000, 600_000);
  const requestTimeoutMs = setting(env, "PLANTSTORE_REQUEST_TIMEOUT_MS", 1000, 3_600_000);
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(
      `PLANTSTORE_REQUEST_TIMEOUT_MS (${requestTimeoutMs}) must not be shorter than PLANTSTORE_HEADERS_TIMEOUT_MS (${headersTimeoutMs})`,
    );
  }
  return {
    metricsToken: parseMetricsToken(env["PLANTSTORE_METRICS_TOKEN"]),
    tokenRateLimit: setting(env, "PLANTSTORE_TOKEN_RATE_LIMIT", 0, 1_000_000_000),
    authFailureLimit: setting(env, "PLANTSTORE_AUTH_FAILURE_LIMIT", 0, 1_000_000_000),
    trustProxy: parseTrustProxy(env["PLANTSTORE_TRUST_PROXY"] ?? DEFAULTS.PLANTSTORE_TRUST_PROXY),
    corsOrigins: parseCorsOrigins(
      env["PLANTSTORE_CORS_ORIGINS"] ?? DEFAULTS.PLANTSTORE_CORS_ORIGINS,
    ),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: setting(env, "PLANTSTORE_KEEPALIVE_TIMEOUT_MS", 1000, 600_000),
    sendTimeoutMs: setting(env, "PLANTSTORE_SEND_TIMEOUT_MS", 100, 3_600_000),
    closeTimeoutMs: setting(env, "PLANTSTORE_CLOSE_TIMEOUT_MS", 100, 600_000),
    maxConnections: setting(env, "PLANTSTORE_MAX_CONNECTIONS", 1, 1_000_000),
    maxConnectionsPerAddress: setting(env, "PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS", 0, 1_000_000),
    maxEventLoopDelayMs: setting(env, "PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS", 0, 60_000),
    shutdownTimeoutMs: setting(env, "PLANTSTORE_SHUTDOWN_TIMEOUT_MS", 1000, 600_000),
  };
}

function parseMetricsToken(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const token = raw.trim();
  if (!isWellFormedToken(token)) {
    throw new ConfigError(
      `PLANTSTORE_METRICS_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750)`,
    );
  }
  return token;
}

/** false, true (every hop), a hop count, or the proxies' addresses and CIDR ranges. */
function parseTrustProxy(raw: string): boolean | number | readonly string[] {
  const value = raw.trim().toLowerCase();
  if (value === "" || value === "false") return false;
  if (value === "true") return true;
  if (/^\d{1,2}$/.test(value) && Number(value) >= 1) return Number(value);
  const entries = value.split(",").map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = "", prefix, ...rest] = entry.split("/");
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || rest.length > 0) {
      throw new ConfigError(
        `PLANTSTORE_TRUST_PROXY must be false, true, a hop count from 1 to 99, or comma-separated proxy addresses or CIDR ranges, got "${raw}"`,
      );
    }
  }
  return entries;
}

/** "*" (any origin), or exact origins such as https://app.example.com:8443. */
function parseCorsOrigins(raw: string): readonly string[] | "*" {
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 1 && entries[0] === "*") return "*";
  for (const entry of entries) {
    if (!isExactOrigin(entry)) {
      throw new ConfigError(
        `PLANTSTORE_CORS_ORIGINS must be "*" or comma-separated origins like https://app.example.com (scheme, host and port only), got "${entry}"`,
      );
    }
  }
  return entries;
}

function isExactOrigin(entry: string): boolean {
  try {
    const url = new URL(entry);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === entry;
  } catch {
    return false;
  }
}
