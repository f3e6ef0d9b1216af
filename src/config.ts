// Settings come from the environment only, are checked once at start-up, and an invalid
// value stops the process with one line naming the variable (see src/main.ts).
import { isAbsolute, resolve } from "node:path";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export interface Config {
  port: number;
  host: string;
  logLevel: LogLevel;
  /** Absolute path of the SQLite file. */
  databasePath: string;
  /** Accepted bearer tokens; undefined means "generate one at start-up". */
  tokens: readonly string[] | undefined;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

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

export const DEFAULTS = {
  PORT: "8080",
  HOST: "127.0.0.1",
  LOG_LEVEL: "info",
  DATABASE_URL: "sqlite:./data/plants.db",
} as const;

export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  return {
    port: parsePort(env["PORT"] ?? DEFAULTS.PORT),
    host: parseHost(env["HOST"] ?? DEFAULTS.HOST),
    logLevel: parseLogLevel(env["LOG_LEVEL"] ?? DEFAULTS.LOG_LEVEL),
    databasePath: parseDatabaseUrl(env["DATABASE_URL"] ?? DEFAULTS.DATABASE_URL, cwd),
    tokens: parseTokens(env["PLANTSTORE_TOKENS"]),
  };
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

function parseDatabaseUrl(raw: string, cwd: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw.trim())?.[1];
  if (scheme?.toLowerCase() !== "sqlite") {
    const what = scheme === undefined ? `"${raw}"` : `the "${scheme}:" scheme`;
    throw new ConfigError(
      `DATABASE_URL must be sqlite:PATH (only SQLite is supported so far), got ${what}`,
    );
  }
  // sqlite:///abs/path and sqlite://rel/path are common spellings of the same thing.
  const path = raw
    .trim()
    .slice(scheme.length + 1)
    .replace(/^\/\/(?=\/)/, "")
    .replace(/^\/\/(?!\/)/, "");
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
  });
  return tokens;
}
