// Every setting the service reads, in one table: the environment variable, its default, a line
// for `--help`, the README's text, and how its value is read and checked. The configuration
// (config.ts), `--help`, `--print-config` and the README's table (written by `npm run
// generate`) all come from here, and so do the types. An invalid value stops start-up with
// one line naming the variable.
import { isIP } from "node:net";
import { isAbsolute, resolve } from "node:path";
import { type PostgresLocation, parsePostgresUrl, redactUrl } from "../store/postgres-url.ts";
import { ConfigError } from "./error.ts";

export { redactUrl };

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/** Where the data lives, as DATABASE_URL names it. */
export type DatabaseLocation =
  | { engine: "sqlite"; path: string }
  | ({ engine: "postgres" } & PostgresLocation);

type Read<T> = (raw: string | undefined, name: string, cwd: string) => T;

export interface Setting<T = unknown> {
  /** The value used when the variable is unset; undefined when unset has a meaning of its own. */
  default: string | undefined;
  /** One line, for `--help` and `--print-config`. */
  meaning: string;
  /** The README's text, when it says more than `meaning`. */
  doc?: string;
  /** How the current value is masked when printed. */
  secret?: "url" | "token";
  read: Read<T>;
  /**
   * How a consumer of the API reads the value, where it is one they can rely on (a limit, a
   * deadline): the published document's descriptions name it `{{NAME}}`, filled with the value
   * in force on the server that publishes the copy (src/docs/published-document.ts).
   */
  published?(value: T): string;
}

const setting = <T>(entry: Setting<T>): Setting<T> => entry;

// ---- readers ----

/** A whole number within [min, max]. */
const wholeNumber =
  (min: number, max: number): Read<number> =>
  (raw, name) => {
    const text = (raw ?? "").trim();
    const value = /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= min && value <= max)) {
      throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    }
    return value;
  };

/** Text as given, or undefined when unset or blank. */
const optionalText: Read<string | undefined> = (raw) =>
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

const readPort: Read<number> = (raw) => {
  const text = raw ?? "";
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
};

const readHost: Read<string> = (raw) => {
  const host = (raw ?? "").trim();
  if (host === "" || /[\s/]/.test(host)) {
    throw new ConfigError(`HOST must be a host name or IP address, got "${raw}"`);
  }
  return host;
};

const readLogLevel: Read<LogLevel> = (raw) => {
  const level = LOG_LEVELS.find((l) => l === (raw ?? "").trim().toLowerCase());
  if (level === undefined) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${raw}"`);
  }
  return level;
};

const readDatabaseUrl: Read<DatabaseLocation> = (raw, _name, cwd) => {
  const text = (raw ?? "").trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
  switch (scheme?.toLowerCase()) {
    case "sqlite":
      return { engine: "sqlite", path: sqlitePath(text.slice(text.indexOf(":") + 1), cwd) };
    case "postgres":
    case "postgresql":
      return { engine: "postgres", ...parsePostgresUrl(text) };
    default: {
      const what = scheme === undefined ? `"${text}"` : `the "${scheme}:" scheme`;
      throw new ConfigError(
        `DATABASE_URL must be sqlite:PATH or postgres://USER@HOST:PORT/DATABASE, got ${what}`,
      );
    }
  }
};

function sqlitePath(rest: string, cwd: string): string {
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

const readTokens: Read<readonly string[] | undefined> = (raw) => {
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
      throw new ConfigError(`PLANTSTORE_TOKENS entry ${i + 1} must be ${TOKEN_RULE}`);
    }
    // How a token is checked follows from its shape (src/auth/authenticator.ts).
    if (token.startsWith("ps_") || JWT_SHAPE.test(token)) {
      throw new ConfigError(
        `PLANTSTORE_TOKENS entry ${i + 1} looks like a managed token (ps_…) or a JWT (three dot-separated parts); choose another`,
      );
    }
  });
  return tokens;
};

const readMetricsToken: Read<string | undefined> = (raw) => {
  if (raw === undefined || raw.trim() === "") return undefined;
  const token = raw.trim();
  if (!isWellFormedToken(token)) {
    throw new ConfigError(`PLANTSTORE_METRICS_TOKEN must be ${TOKEN_RULE}`);
  }
  return token;
};

/** An http(s) URL with no credentials, query or fragment; a trailing slash is dropped. */
const readPublicUrl: Read<string | undefined> = (raw) => {
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
};

/** false, true (every hop), a hop count, or the proxies' addresses and CIDR ranges. */
const readTrustProxy: Read<boolean | number | readonly string[]> = (raw) => {
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
        `PLANTSTORE_TRUST_PROXY must be false, true, a hop count from 1 to 99, or comma-separated proxy addresses or CIDR ranges, got "${raw}"`,
      );
    }
  }
  return entries;
};

/** "*" (any origin), or exact origins such as https://app.example.com:8443. */
const readCorsOrigins: Read<readonly string[] | "*"> = (raw) => {
  const entries = (raw ?? "")
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
};

function isExactOrigin(entry: string): boolean {
  try {
    const url = new URL(entry);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === entry;
  } catch {
    return false;
  }
}

/** PLANTSTORE_WEBHOOK_RETRY_SCHEDULE: delays such as `5s,5m,30m,2h`, in ms. */
const readRetrySchedule: Read<readonly number[]> = (raw, name) => {
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

const readBoolean: Read<boolean> = (raw, name) => {
  const text = (raw ?? "").trim().toLowerCase();
  if (text === "true") return true;
  if (text === "false") return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
};

// ---- how published values read ----

/** A duration in ms as a reader of the document takes it: "10 s", or "250 ms". */
const duration = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
/** A limit where 0 turns it off. */
const limitOrNone = (count: number): string => (count === 0 ? "no limit" : String(count));

/** Retry delays as a reader of the document takes them: "5 s, 5 min and 2 h". */
const delays = (list: readonly number[]): string => {
  const one = (ms: number): string =>
    ms % 86_400_000 === 0
      ? `${ms / 86_400_000} d`
      : ms % 3_600_000 === 0
        ? `${ms / 3_600_000} h`
        : ms % 60_000 === 0
          ? `${ms / 60_000} min`
          : `${ms / 1000} s`;
  const texts = list.map(one);
  return texts.length === 1
    ? (texts[0] ?? "")
    : `${texts.slice(0, -1).join(", ")} and ${texts.at(-1)}`;
};
/** Days, for retention. */
const days = (count: number): string => (count === 1 ? "1 day" : `${count} days`);

// ---- the table, in the README's order ----

export const SETTINGS = {
  PORT: setting({
    default: "8080",
    meaning: "TCP port (0 picks a free one)",
    doc: "TCP port, 0–65535 (0 picks a free port; the log line `Server listening at …` tells which)",
    read: readPort,
  }),
  HOST: setting({
    default: "127.0.0.1",
    meaning: "address to listen on",
    doc: "address to listen on; `0.0.0.0` for every interface",
    read: readHost,
  }),
  LOG_LEVEL: setting({
    default: "info",
    meaning: "fatal … trace, or silent",
    doc: "`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; one JSON line per request at `info`",
    read: readLogLevel,
  }),
  DATABASE_URL: setting({
    default: "sqlite:./data/plants.db",
    secret: "url",
    meaning: "sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT][,HOST[:PORT]…]/DATABASE",
    doc: "`sqlite:PATH`, relative to the working directory or absolute (`sqlite:///var/lib/plants.db` works too; the folder and file are created), or `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (`postgresql://` too; query options such as `?sslmode=require` are passed to the driver). Several hosts, `HOST1:PORT1,HOST2:PORT2`, are tried in turn for the writable one (`target_session_attrs=read-write`, the default with several hosts, or `primary`; `any` stays on the first that answers). A connection pooler such as PgBouncer is detected and needs nothing here; `prepare=false` says so for one that is not (see [Scaling out](#scaling-out)). The schema is migrated on start. Passwords are masked in every message and log line.",
    read: readDatabaseUrl,
  }),
  DATABASE_POOL_MAX: setting({
    default: "10",
    meaning: "PostgreSQL pool size",
    doc: "PostgreSQL: most connections one instance opens (1–1000). Requests beyond it wait for a free connection, within the query timeout.",
    read: wholeNumber(1, 1000),
  }),
  DATABASE_CONNECT_TIMEOUT_MS: setting({
    default: "5000",
    meaning: "PostgreSQL: opening one connection",
    doc: "PostgreSQL: how long opening one connection may take",
    read: wholeNumber(100, 600_000),
  }),
  DATABASE_IDLE_TIMEOUT_MS: setting({
    default: "30000",
    meaning: "PostgreSQL: an idle connection is closed after",
    read: wholeNumber(1000, 86_400_000),
  }),
  DATABASE_QUERY_TIMEOUT_MS: setting({
    default: "10000",
    meaning: "PostgreSQL: a request's wait on the database, after which it gets 503",
    doc: "PostgreSQL: the longest any request waits on the database, a connection included; then 503 with `Retry-After`. The server cancels a statement running longer (`statement_timeout`, set per transaction through a pooler); a request with no answer at all (network gone, pool exhausted) gets its 503 one second later. A request waiting for a connection while the database is away is answered as soon as it is back",
    read: wholeNumber(100, 600_000),
  }),
  DATABASE_STARTUP_TIMEOUT_MS: setting({
    default: "30000",
    meaning: "PostgreSQL: start-up retries an unreachable database for",
    doc: "PostgreSQL: how long start-up retries an unreachable database (one stderr line per attempt) before exiting 1; `0` tries once",
    read: wholeNumber(0, 3_600_000),
  }),
  PLANTSTORE_TOKENS: setting({
    default: undefined,
    secret: "token",
    meaning: "static bearer tokens, comma-separated (unset: managed tokens and JWTs only)",
    doc: "static bearer tokens, comma-separated, for bootstrap and tests: each at least 16 characters of `A-Z a-z 0-9 - . _ ~ + /` (RFC 6750), not starting with `ps_` and not shaped like a JWT (`a.b.c`). They have full access. Unset, and no JWT settings: a first start on an empty token table creates the managed token `initial` and prints it once on stderr.",
    read: readTokens,
  }),
  PLANTSTORE_TOKEN_RETENTION_DAYS: setting({
    default: "30",
    meaning: "revoked and expired managed tokens are purged after (0: kept)",
    doc: "managed tokens revoked or expired longer ago than this many days are deleted (checked hourly by each instance); `0` keeps them for good",
    read: wholeNumber(0, 36_500),
  }),
  PLANTSTORE_JWT_ISSUER: setting({
    default: undefined,
    meaning: "JWTs: the required iss",
    doc: "JWTs: the `iss` every accepted token must carry. Setting any `PLANTSTORE_JWT_*` turns JWTs on and requires this, the audience and exactly one key source.",
    read: optionalText,
  }),
  PLANTSTORE_JWT_AUDIENCE: setting({
    default: undefined,
    meaning: "JWTs: the required aud",
    doc: "JWTs: the `aud` every accepted token must carry (one value)",
    read: optionalText,
  }),
  PLANTSTORE_JWT_JWKS_FILE: setting({
    default: undefined,
    meaning: "JWT keys: a JWKS file",
    doc: "key source: a JWKS file (path as for `sqlite:`). Re-read when it changes (checked at most once a second, and at once for an unknown `kid`), so keys rotate without a restart; while it is unreadable the last good keys stay in use.",
    read: optionalText,
  }),
  PLANTSTORE_JWT_JWKS_URL: setting({
    default: undefined,
    meaning: "JWT keys: a JWKS URL",
    doc: "key source: the identity provider's JWKS URL, `https://` (`http://` only for localhost). Fetched with a 5 s timeout, cached for 10 minutes, fetched again for an unknown `kid` at most every 30 s. While it cannot be fetched, JWTs get 503.",
    read: optionalText,
  }),
  PLANTSTORE_JWT_PUBLIC_KEY_FILE: setting({
    default: undefined,
    meaning: "JWT keys: one PEM public key",
    doc: "key source: one PEM public key (RSA, EC or Ed25519)",
    read: optionalText,
  }),
  PLANTSTORE_JWT_HS256_SECRET: setting({
    default: undefined,
    secret: "token",
    meaning: "JWT keys: an HS256 secret",
    doc: "key source: a shared secret of at least 32 bytes, for HS256",
    read: optionalText,
  }),
  PLANTSTORE_JWT_ALGORITHMS: setting({
    default: undefined,
    meaning: "accepted alg values (unset: from the key source)",
    doc: "accepted `alg` values (unset: `RS256,ES256,PS256,EdDSA`, or `HS256` with a secret), comma- or space-separated. `none` is refused, and HMAC (`HS*`) cannot be mixed with public-key algorithms nor used with a public key source (no algorithm confusion).",
    read: optionalText,
  }),
  PLANTSTORE_JWT_CLOCK_SKEW_S: setting({
    default: "30",
    meaning: "JWTs: leeway for exp and nbf",
    doc: "seconds of leeway for `exp` and `nbf`, 0–600",
    read: (raw) => {
      const text = (raw ?? "").trim();
      const value = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
      if (!(value >= 0 && value <= 600)) {
        throw new ConfigError(
          `PLANTSTORE_JWT_CLOCK_SKEW_S must be a whole number of seconds from 0 to 600, got "${raw}"`,
        );
      }
      return value;
    },
  }),
  PLANTSTORE_PUBLIC_URL: setting({
    default: undefined,
    meaning: "base URL in the published document's servers (unset: the listening address)",
    doc: "the base URL clients use (`https://plants.example.com`): the `servers` of the published document and the base of every `Link`; unset: the address the server listens on, and relative links",
    read: readPublicUrl,
  }),
  PLANTSTORE_METRICS_TOKEN: setting({
    default: undefined,
    secret: "token",
    meaning: "bearer token GET /metrics requires (unset: /metrics is open)",
    doc: "bearer token for `GET /metrics`, same syntax as `PLANTSTORE_TOKENS`; unset leaves `/metrics` open (keep it off the public network)",
    read: readMetricsToken,
  }),
  PLANTSTORE_TOKEN_RATE_LIMIT: setting({
    default: "6000",
    meaning: "requests per minute per bearer token (0: no limit)",
    doc: "requests per minute one caller (a managed token, a JWT subject, a static token) may make to operations that need a token; over it: 429. `0` disables",
    read: wholeNumber(0, 1_000_000_000),
    published: limitOrNone,
  }),
  PLANTSTORE_AUTH_FAILURE_LIMIT: setting({
    default: "60",
    meaning: "rejected credentials per minute per client address (0: no limit)",
    doc: "rejected credentials (401 `invalid_token`) per minute from one client address; over it, every request from that address to an operation that needs credentials gets 429 until the minute ends, before its token is even checked. Requests without credentials do not count. `0` disables",
    read: wholeNumber(0, 1_000_000_000),
    published: limitOrNone,
  }),
  PLANTSTORE_TRUST_PROXY: setting({
    default: "false",
    meaning: "believe X-Forwarded-For: false, true, a hop count, or proxy addresses/CIDRs",
    doc: "whether `X-Forwarded-For` names the client: `false` (the socket's peer is the client), `true` (believe it all — only when every path in goes through your proxy), a hop count, or the proxies' addresses/CIDRs, e.g. `10.0.0.0/8,127.0.0.1`",
    read: readTrustProxy,
  }),
  PLANTSTORE_CORS_ORIGINS: setting({
    default: "",
    meaning: "origins browsers may call from, comma-separated, or * (empty: none)",
    doc: "origins a browser may call from, exact (`https://app.example.com`, comma-separated), or `*` for any. Empty: none",
    read: readCorsOrigins,
  }),
  PLANTSTORE_HEADERS_TIMEOUT_MS: setting({
    default: "10000",
    meaning: "request headers must arrive within (408)",
    doc: "request headers must arrive within this (else 408, connection closed)",
    read: wholeNumber(1000, 600_000),
    published: duration,
  }),
  PLANTSTORE_REQUEST_TIMEOUT_MS: setting({
    default: "30000",
    meaning: "a whole request must arrive within (408)",
    doc: "the whole request must arrive within this (408); not shorter than the headers timeout",
    read: wholeNumber(1000, 3_600_000),
    published: duration,
  }),
  PLANTSTORE_KEEPALIVE_TIMEOUT_MS: setting({
    default: "72000",
    meaning: "an idle keep-alive connection is closed after",
    doc: "an idle keep-alive connection is closed after this; longer than common load balancer idle timeouts (60 s), so the balancer closes first",
    read: wholeNumber(1000, 600_000),
    published: duration,
  }),
  PLANTSTORE_SEND_TIMEOUT_MS: setting({
    default: "30000",
    meaning: "an answer the client has not taken within this is dropped",
    doc: "an answer must be taken by the client in full within this; a client that stops reading is dropped (its connection destroyed) once its unread backlog is this old",
    read: wholeNumber(100, 3_600_000),
    published: duration,
  }),
  PLANTSTORE_CLOSE_TIMEOUT_MS: setting({
    default: "5000",
    meaning: "a connection the server closed is destroyed after",
    doc: "once the server has closed its side of a connection (after a 400, 408 or 431, or `Connection: close`), the client has this long to close its own; then the connection is destroyed",
    read: wholeNumber(100, 600_000),
    published: duration,
  }),
  PLANTSTORE_MAX_CONNECTIONS: setting({
    default: "1000",
    meaning: "open connections at most; more are closed at once",
    doc: "open connections at most; one more is closed on arrival (and counted). Below the usual 1024 open-file limit, leaving room for the database",
    read: wholeNumber(1, 1_000_000),
  }),
  PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS: setting({
    default: "500",
    meaning: "open connections one client address may hold (0: no cap)",
    doc: "open connections one client address (IPv6: one /64) may hold; one more is closed on arrival (and counted). Half the overall cap, so that no single client can take every slot while a busy backend with hundreds of connections still fits; lower it when the service faces the internet directly. Counted by the socket's peer: behind a proxy or load balancer, raise it above the connections the proxy opens, or set `0` for no cap",
    read: wholeNumber(0, 1_000_000),
    published: limitOrNone,
  }),
  PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS: setting({
    default: "1000",
    meaning: "event-loop delay past which requests get 503 (0: never)",
    doc: "when the event loop lags more than this (sampled each second), requests get 503 with `Retry-After: 2` instead of queueing; `/healthz` and `/metrics` are still answered, and nothing is refused in the first 2 s after start (start-up's own work, not load). `0` disables",
    read: wholeNumber(0, 60_000),
  }),
  PLANTSTORE_SHUTDOWN_TIMEOUT_MS: setting({
    default: "10000",
    meaning: "graceful shutdown deadline; past it the process exits 1",
    read: wholeNumber(1000, 600_000),
  }),
  PLANTSTORE_WEBHOOK_TIMEOUT_MS: setting({
    default: "10000",
    meaning: "webhooks: how long one attempt waits for the receiver's answer",
    doc: "webhooks: how long one delivery attempt may take, connecting and the whole answer included; then it counts as failed and is retried",
    read: wholeNumber(100, 60_000),
    published: duration,
  }),
  PLANTSTORE_WEBHOOK_RETRY_SCHEDULE: setting({
    default: "5s,5m,30m,2h,5h,10h,10h",
    meaning: "webhooks: delays between attempts; after the last the delivery is failed",
    doc: "webhooks: the delays after a failed attempt before the next (`s`, `m`, `h` or `d`, comma-separated), each with up to 10 % random jitter; after the last the delivery is `failed` (it can still be retried by hand). The default spans about 28 hours",
    read: readRetrySchedule,
    published: delays,
  }),
  PLANTSTORE_WEBHOOK_RETENTION_DAYS: setting({
    default: "7",
    meaning: "webhooks: delivered and failed deliveries are purged after",
    doc: "webhooks: delivered and failed deliveries older than this many days are deleted from the delivery log (checked hourly by each instance, in bounded batches)",
    read: wholeNumber(1, 36_500),
    published: days,
  }),
  PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: setting({
    default: "false",
    meaning: "webhooks: allow http:// and loopback, private and link-local receivers",
    doc: "webhooks: `true` lets endpoints be `http://` and on loopback, private, link-local or metadata addresses (local receivers, tests), and registers a URL without looking its host up. Leave it `false` wherever users can register endpoints: it is what stops a URL from reaching the service's own network",
    read: readBoolean,
  }),
  PLANTSTORE_WEBHOOK_SEND: setting({
    default: "true",
    meaning: "webhooks: whether this instance sends them; false: it only records them",
    doc: "webhooks: `false` makes this instance store deliveries without sending any (nor purging old ones): for an instance that serves the API while others on the same PostgreSQL database send, or a server whose delivery log must stand still (the examples suite). With `PLANTSTORE_WORKERS` over 1, one worker sends unless this is `false`",
    read: readBoolean,
  }),
  PLANTSTORE_WEBHOOK_LEASE_MS: setting({
    default: "15000",
    meaning: "webhooks: how long an instance holds a claimed delivery; longer than the timeout",
    doc: "webhooks: how long an instance holds a delivery it claimed before another may take it over (after a crash); must exceed `PLANTSTORE_WEBHOOK_TIMEOUT_MS`",
    read: wholeNumber(1000, 600_000),
  }),
  PLANTSTORE_WEBHOOK_MAX_ENDPOINTS: setting({
    default: "100",
    meaning: "webhooks: most endpoints the store holds; registering more is refused",
    doc: "webhooks: most endpoints the store holds, enabled or not (every instance's); past it `POST /webhook-endpoints` answers 400 until one is deleted. Each endpoint receives every new plant, so this bounds the work one create sets off",
    read: wholeNumber(1, 100_000),
    published: String,
  }),
  PLANTSTORE_WEBHOOK_CONCURRENCY: setting({
    default: "32",
    meaning: "webhooks: attempts one instance makes at once, overall",
    read: wholeNumber(1, 1000),
  }),
  PLANTSTORE_WEBHOOK_ENDPOINT_CONCURRENCY: setting({
    default: "4",
    meaning: "webhooks: attempts one instance makes at once to one endpoint",
    doc: "webhooks: attempts one instance makes at once to one endpoint, so that a slow endpoint holds at most this many of the overall slots",
    read: wholeNumber(1, 1000),
  }),
  PLANTSTORE_WORKERS: setting({
    default: "1",
    meaning: "server processes sharing the port (node:cluster); 1 serves in this process",
    doc: "server processes sharing the port (node:cluster); 1 serves in this process. `GET /metrics` answers for all of them, summed",
    // Each worker holds its own connections and memory; past this, one machine is the wrong size.
    read: wholeNumber(1, 64),
  }),
};

export type SettingName = keyof typeof SETTINGS;

/** Every setting's value, as read: typed by its reader. */
export type SettingValues = {
  [Name in SettingName]: (typeof SETTINGS)[Name] extends Setting<infer T> ? T : never;
};

type Env = Readonly<Record<string, string | undefined>>;

/** Reads every setting from `env` (defaults where unset); throws ConfigError for a bad one. */
export function readSettings(env: Env, cwd: string): SettingValues {
  const values: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(SETTINGS) as [SettingName, Setting][]) {
    values[name] = entry.read(env[name] ?? entry.default, name, cwd);
  }
  return values as SettingValues;
}

/** `{{NAME}}` → text, for every setting a consumer can rely on (see Setting.published). */
export function publishedValues(values: SettingValues): Readonly<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const [name, entry] of Object.entries(SETTINGS) as [SettingName, Setting][]) {
    if (entry.published !== undefined) texts[name] = entry.published(values[name]);
  }
  return texts;
}
