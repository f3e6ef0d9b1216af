// How each setting's text is read and checked. A reader is given the variable's name, so its
// messages name it without the name being written here: the table (settings.ts) names it.
import { isIP } from "node:net";
import { isAbsolute, resolve } from "node:path";
import { ConfigError } from "./error.ts";
import { type PostgresLocation, parsePostgresUrl } from "./postgres-url.ts";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/** Where the data lives, as DATABASE_URL names it. */
export type DatabaseLocation =
  | { engine: "sqlite"; path: string }
  | ({ engine: "postgres" } & PostgresLocation);

export type Read<T> = (raw: string | undefined, name: string, cwd: string) => T;

/** Digits read as a whole number within [min, max]; `what` it must be, for the message. */
const whole =
  (min: number, max: number, digits: RegExp, what: string): Read<number> =>
  (raw, name) => {
    const text = (raw ?? "").trim();
    const value = digits.test(text) ? Number(text) : Number.NaN;
    if (!(value >= min && value <= max)) {
      throw new ConfigError(`${name} must be ${what} from ${min} to ${max}, got "${raw}"`);
    }
    return value;
  };

/** A whole number within [min, max]. */
export const wholeNumber = (min: number, max: number): Read<number> =>
  whole(min, max, /^\d{1,10}$/, "a whole number");

/** A whole number of seconds within [min, max]. */
export const wholeSeconds = (min: number, max: number): Read<number> =>
  whole(min, max, /^\d{1,4}$/, "a whole number of seconds");

export const DAY_MS = 86_400_000;

/** A whole number of days within [min, max], in ms: what the configuration holds. */
export const wholeDays =
  (min: number, max: number): Read<number> =>
  (raw, name, cwd) =>
    wholeNumber(min, max)(raw, name, cwd) * DAY_MS;

/** Text as given, or undefined when unset or blank. */
export const optionalText: Read<string | undefined> = (raw) =>
  raw === undefined || raw.trim() === "" ? undefined : raw;

// RFC 6750 b64token: what a bearer token may contain on the wire.
const TOKEN_SYNTAX = /^[A-Za-z0-9\-._~+/]+=*$/;
const MIN_TOKEN_LENGTH = 16;
/** Three base64url segments: a JWS in compact serialisation. */
export const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const isWellFormedToken = (token: string): boolean =>
  TOKEN_SYNTAX.test(token) && token.length >= MIN_TOKEN_LENGTH;
const TOKEN_RULE = `at least ${MIN_TOKEN_LENGTH} characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750)`;

const LOG_LEVELS: readonly LogLevel[] = [
  "fatal",
  "error",
  "warn",
  "info",
  "debug",
  "trace",
  "silent",
];

export const readPort: Read<number> = (raw, name) => {
  const text = raw ?? "";
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new ConfigError(`${name} must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
};

export const readHost: Read<string> = (raw, name) => {
  const host = (raw ?? "").trim();
  if (host === "" || /[\s/]/.test(host)) {
    throw new ConfigError(`${name} must be a host name or IP address, got "${raw}"`);
  }
  return host;
};

export const readLogLevel: Read<LogLevel> = (raw, name) => {
  const level = LOG_LEVELS.find((l) => l === (raw ?? "").trim().toLowerCase());
  if (level === undefined) {
    throw new ConfigError(`${name} must be one of ${LOG_LEVELS.join(", ")}, got "${raw}"`);
  }
  return level;
};

export const readDatabaseUrl: Read<DatabaseLocation> = (raw, name, cwd) => {
  const text = (raw ?? "").trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
  switch (scheme?.toLowerCase()) {
    case "sqlite":
      return { engine: "sqlite", path: sqlitePath(text.slice(text.indexOf(":") + 1), name, cwd) };
    case "postgres":
    case "postgresql":
      return { engine: "postgres", ...parsePostgresUrl(text, name) };
    default: {
      const what = scheme === undefined ? `"${text}"` : `the "${scheme}:" scheme`;
      throw new ConfigError(
        `${name} must be sqlite:PATH or postgres://USER@HOST:PORT/DATABASE, got ${what}`,
      );
    }
  }
};

function sqlitePath(rest: string, name: string, cwd: string): string {
  // sqlite:///abs/path and sqlite://rel/path are common spellings of the same thing.
  const path = rest.replace(/^\/\/(?=\/)/, "").replace(/^\/\/(?!\/)/, "");
  if (path === "") {
    throw new ConfigError(`${name} must name a file after sqlite:, e.g. sqlite:./data/plants.db`);
  }
  if (path === ":memory:" || path.startsWith("file:")) {
    throw new ConfigError(
      `${name} must be a file path; "${path}" would not keep plants across restarts`,
    );
  }
  return isAbsolute(path) ? path : resolve(cwd, path);
}

export const readTokens: Read<readonly string[] | undefined> = (raw, name) => {
  if (raw === undefined) return undefined;
  const tokens = raw
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  if (tokens.length === 0) {
    throw new ConfigError(`${name} is set but holds no token; unset it to generate one`);
  }
  tokens.forEach((token, i) => {
    if (!isWellFormedToken(token)) {
      throw new ConfigError(`${name} entry ${i + 1} must be ${TOKEN_RULE}`);
    }
    // How a token is checked follows from its shape (src/auth/authenticator.ts).
    if (token.startsWith("ps_") || JWT_SHAPE.test(token)) {
      throw new ConfigError(
        `${name} entry ${i + 1} looks like a managed token (ps_…) or a JWT (three dot-separated parts); choose another`,
      );
    }
  });
  return tokens;
};

export const readMetricsToken: Read<string | undefined> = (raw, name) => {
  if (raw === undefined || raw.trim() === "") return undefined;
  const token = raw.trim();
  if (!isWellFormedToken(token)) {
    throw new ConfigError(`${name} must be ${TOKEN_RULE}`);
  }
  return token;
};

/** An http(s) URL with no credentials, query or fragment; a trailing slash is dropped. */
export const readPublicUrl: Read<string | undefined> = (raw, name) => {
  if (raw === undefined || raw.trim() === "") return undefined;
  const problem = `${name} must be an http:// or https:// URL without credentials, query or fragment, e.g. https://plants.example.com, got "${raw}"`;
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
};

/** false, true (every hop), a hop count, or the proxies' addresses and CIDR ranges. */
export const readTrustProxy: Read<boolean | number | readonly string[]> = (raw, name) => {
  const value = (raw ?? "").trim().toLowerCase();
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
        `${name} must be false, true, a hop count from 1 to 99, or comma-separated proxy addresses or CIDR ranges, got "${raw}"`,
      );
    }
  }
  return entries;
};

/** "*" (any origin), or exact origins such as https://app.example.com:8443. */
export const readCorsOrigins: Read<readonly string[] | "*"> = (raw, name) => {
  const entries = (raw ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 1 && entries[0] === "*") return "*";
  for (const entry of entries) {
    if (!isExactOrigin(entry)) {
      throw new ConfigError(
        `${name} must be "*" or comma-separated origins like https://app.example.com (scheme, host and port only), got "${entry}"`,
      );
    }
  }
  return entries;
};

function isExactOrigin(entry: string): boolean {
  try {
    const url = new URL(entry);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === entry;
  } catch {
    return false;
  }
}

/** Delays such as `5s,5m,30m,2h`, in ms. */
export const readRetrySchedule: Read<readonly number[]> = (raw, name) => {
  const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const delays = (raw ?? "").split(",").map((part) => {
    const match = /^\s*(\d{1,6})(s|m|h|d)\s*$/.exec(part);
    const unit = match === null ? undefined : units[match[2] ?? ""];
    if (match === null || unit === undefined || Number(match[1]) === 0) {
      throw new ConfigError(
        `${name} must be delays such as 5s,5m,30m,2h (s, m, h or d; comma-separated; none zero), got "${raw}"`,
      );
    }
    return Number(match[1]) * unit;
  });
  if (delays.length > 50) throw new ConfigError(`${name} may list at most 50 delays`);
  return delays;
};

export const readBoolean: Read<boolean> = (raw, name) => {
  const text = (raw ?? "").trim().toLowerCase();
  if (text === "true") return true;
  if (text === "false") return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
};
