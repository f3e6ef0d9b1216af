// Settings come from the environment only, are checked once at start-up, and an invalid
// value stops the process with one line naming the variable (see src/main.ts).
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
} as const;

export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  return {
    port: parsePort(env["PORT"] ?? DEFAULTS.PORT),
    host: parseHost(env["HOST"] ?? DEFAULTS.HOST),
    logLevel: parseLogLevel(env["LOG_LEVEL"] ?? DEFAULTS.LOG_LEVEL),
    database: parseDatabase(env, cwd),
    startupTimeoutMs: setting(env, "DATABASE_STARTUP_TIMEOUT_MS", 0, 3_600_000),
    tokens: parseTokens(env["PLANTSTORE_TOKENS"]),
    jwt: parseJwt(env, cwd),
  };
}

type NumericSetting = Exclude<
  keyof typeof DEFAULTS,
  "PORT" | "HOST" | "LOG_LEVEL" | "DATABASE_URL"
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
    if (!TOKEN_SYNTAX.test(token) || token.length < MIN_TOKEN_LENGTH) {
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
