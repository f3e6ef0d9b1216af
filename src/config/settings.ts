// Every setting the service reads, in one table: the environment variable, where its value
// lands in the configuration, its default, a line for `--help`, the text of docs/operating.md, and how its
// value is read and checked. The configuration and its type (config.ts), `--help`,
// `--print-config` and that page's table (written by `npm run generate`) all come from here,
// so this is the one place in the code that names a variable.
import { count, days, delays, duration, limitOrNone } from "./published.ts";
import {
  optionalText,
  type Read,
  readBoolean,
  readCorsOrigins,
  readDatabaseUrl,
  readHost,
  readLogLevel,
  readMetricsToken,
  readPort,
  readPublicUrl,
  readRetrySchedule,
  readTokens,
  readTrustProxy,
  wholeDays,
  wholeNumber,
  wholeSeconds,
} from "./readers.ts";

export interface Setting<T = unknown, To extends string = string> {
  /**
   * Where the value lands in the configuration (config.ts): a field, or `group.field`. The
   * groups are `ops`, `webhooks`, `jwt` (checked together) and `postgres` (the database's,
   * when DATABASE_URL names PostgreSQL).
   */
  to: To;
  /** The value used when the variable is unset; undefined when unset has a meaning of its own. */
  default: string | undefined;
  /** One line, for `--help` and `--print-config`. */
  meaning: string;
  /** The text of docs/operating.md's table, when it says more than `meaning`. */
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

const setting = <T, To extends string>(entry: Setting<T, To>): Setting<T, To> => entry;

// ---- the table, in docs/operating.md's order ----

export const SETTINGS = {
  PORT: setting({
    to: "port",
    default: "8080",
    meaning: "TCP port (0 picks a free one)",
    doc: "TCP port, 0–65535 (0 picks a free port; the log line `Server listening at …` tells which)",
    read: readPort,
  }),
  HOST: setting({
    to: "host",
    default: "127.0.0.1",
    meaning: "address to listen on",
    doc: "address to listen on; `0.0.0.0` for every interface",
    read: readHost,
  }),
  LOG_LEVEL: setting({
    to: "logLevel",
    default: "info",
    meaning: "fatal … trace, or silent",
    doc: "`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; one JSON line per request at `info`",
    read: readLogLevel,
  }),
  DATABASE_URL: setting({
    to: "database",
    default: "sqlite:./data/plants.db",
    secret: "url",
    meaning: "sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT][,HOST[:PORT]…]/DATABASE",
    doc: "`sqlite:PATH`, relative to the working directory or absolute (`sqlite:///var/lib/plants.db` works too; the folder and file are created), or `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (`postgresql://` too; query options such as `?sslmode=require` are passed to the driver). Several hosts, `HOST1:PORT1,HOST2:PORT2`, are tried in turn for the writable one (`target_session_attrs=read-write`, the default with several hosts, or `primary`; `any` stays on the first that answers). A connection pooler such as PgBouncer is detected and needs nothing here; `prepare=false` says so for one that is not (see [Scaling out](scaling-out.md)). The schema is migrated on start. Passwords are masked in every message and log line.",
    read: readDatabaseUrl,
  }),
  DATABASE_POOL_MAX: setting({
    to: "postgres.poolMax",
    default: "10",
    meaning: "PostgreSQL pool size",
    doc: "PostgreSQL: most connections one instance opens (1–1000). Requests beyond it wait for a free connection, within the query timeout.",
    read: wholeNumber(1, 1000),
  }),
  DATABASE_CONNECT_TIMEOUT_MS: setting({
    to: "postgres.connectTimeoutMs",
    default: "5000",
    meaning: "PostgreSQL: opening one connection",
    doc: "PostgreSQL: how long opening one connection may take",
    read: wholeNumber(100, 600_000),
  }),
  DATABASE_IDLE_TIMEOUT_MS: setting({
    to: "postgres.idleTimeoutMs",
    default: "30000",
    meaning: "PostgreSQL: an idle connection is closed after",
    read: wholeNumber(1000, 86_400_000),
  }),
  DATABASE_QUERY_TIMEOUT_MS: setting({
    to: "postgres.queryTimeoutMs",
    default: "10000",
    meaning: "PostgreSQL: a request's wait on the database, after which it gets 503",
    doc: "PostgreSQL: the longest any request waits on the database, a connection included; then 503 with `Retry-After`. The server cancels a statement running longer (`statement_timeout`, set per transaction through a pooler); a request with no answer at all (network gone, pool exhausted) gets its 503 one second later. A request waiting for a connection while the database is away is answered as soon as it is back",
    read: wholeNumber(100, 600_000),
  }),
  DATABASE_STARTUP_TIMEOUT_MS: setting({
    to: "startupTimeoutMs",
    default: "30000",
    meaning: "PostgreSQL: start-up retries an unreachable database for",
    doc: "PostgreSQL: how long start-up retries an unreachable database (one stderr line per attempt) before exiting 1; `0` tries once. A database that does not exist is not retried: start-up exits 1 at once, with the `createdb` command that makes it",
    read: wholeNumber(0, 3_600_000),
  }),
  PLANTSTORE_TOKENS: setting({
    to: "tokens",
    default: undefined,
    secret: "token",
    meaning: "static bearer tokens, comma-separated (unset: managed tokens and JWTs only)",
    doc: "static bearer tokens, comma-separated, for bootstrap and tests: each at least 16 characters of `A-Z a-z 0-9 - . _ ~ + /` (RFC 6750), not starting with `ps_` and not shaped like a JWT (`a.b.c`). They have full access. Unset, and no JWT settings: a first start on an empty token table creates the managed token `initial` and prints it once on stderr.",
    read: readTokens,
  }),
  PLANTSTORE_TOKEN_RETENTION_DAYS: setting({
    to: "tokenRetentionMs",
    default: "30",
    meaning: "revoked and expired managed tokens are purged after (0: kept)",
    doc: "managed tokens revoked or expired longer ago than this many days are deleted (checked hourly by each instance); `0` keeps them for good",
    read: wholeDays(0, 36_500),
  }),
  PLANTSTORE_JWT_ISSUER: setting({
    to: "jwt.issuer",
    default: undefined,
    meaning: "JWTs: the required iss",
    doc: "JWTs: the `iss` every accepted token must carry. Setting any `PLANTSTORE_JWT_*` turns JWTs on and requires this, the audience and exactly one key source.",
    read: optionalText,
  }),
  PLANTSTORE_JWT_AUDIENCE: setting({
    to: "jwt.audience",
    default: undefined,
    meaning: "JWTs: the required aud",
    doc: "JWTs: the `aud` every accepted token must carry (one value)",
    read: optionalText,
  }),
  PLANTSTORE_JWT_JWKS_FILE: setting({
    to: "jwt.jwksFile",
    default: undefined,
    meaning: "JWT keys: a JWKS file",
    doc: "key source: a JWKS file (path as for `sqlite:`). Re-read when it changes (checked at most once a second, and at once for an unknown `kid`), so keys rotate without a restart; while it is unreadable the last good keys stay in use.",
    read: optionalText,
  }),
  PLANTSTORE_JWT_JWKS_URL: setting({
    to: "jwt.jwksUrl",
    default: undefined,
    meaning: "JWT keys: a JWKS URL",
    doc: "key source: the identity provider's JWKS URL, `https://` (`http://` only for localhost). Fetched with a 5 s timeout, cached for 10 minutes, fetched again for an unknown `kid` at most every 30 s. While it cannot be fetched, JWTs get 503.",
    read: optionalText,
  }),
  PLANTSTORE_JWT_PUBLIC_KEY_FILE: setting({
    to: "jwt.publicKeyFile",
    default: undefined,
    meaning: "JWT keys: one PEM public key",
    doc: "key source: one PEM public key (RSA, EC or Ed25519)",
    read: optionalText,
  }),
  PLANTSTORE_JWT_HS256_SECRET: setting({
    to: "jwt.hs256Secret",
    default: undefined,
    secret: "token",
    meaning: "JWT keys: an HS256 secret",
    doc: "key source: a shared secret of at least 32 bytes, for HS256",
    read: optionalText,
  }),
  PLANTSTORE_JWT_ALGORITHMS: setting({
    to: "jwt.algorithms",
    default: undefined,
    meaning: "accepted alg values (unset: from the key source)",
    doc: "accepted `alg` values (unset: `RS256,ES256,PS256,EdDSA`, or `HS256` with a secret), comma- or space-separated. `none` is refused, and HMAC (`HS*`) cannot be mixed with public-key algorithms nor used with a public key source (no algorithm confusion).",
    read: optionalText,
  }),
  PLANTSTORE_JWT_CLOCK_SKEW_S: setting({
    to: "jwt.clockSkewSeconds",
    default: "30",
    meaning: "JWTs: leeway for exp and nbf",
    doc: "seconds of leeway for `exp` and `nbf`, 0–600",
    read: wholeSeconds(0, 600),
  }),
  PLANTSTORE_PUBLIC_URL: setting({
    to: "publicUrl",
    default: undefined,
    meaning: "base URL in the published document's servers (unset: the listening address)",
    doc: "the base URL clients use (`https://plants.example.com`): the `servers` of the published document and the base of every `Link`; unset: the address the server listens on, and relative links",
    read: readPublicUrl,
  }),
  PLANTSTORE_METRICS_TOKEN: setting({
    to: "ops.metricsToken",
    default: undefined,
    secret: "token",
    meaning: "bearer token GET /metrics requires (unset: /metrics is open)",
    doc: "bearer token for `GET /metrics`, same syntax as `PLANTSTORE_TOKENS`; unset leaves `/metrics` open (keep it off the public network)",
    read: readMetricsToken,
  }),
  PLANTSTORE_TOKEN_RATE_LIMIT: setting({
    to: "ops.tokenRateLimit",
    default: "6000",
    meaning: "requests per minute per bearer token (0: no limit)",
    doc: "requests per minute one caller (a managed token, a JWT subject, a static token) may make to operations that need a token; over it: 429. `0` disables",
    read: wholeNumber(0, 1_000_000_000),
    published: limitOrNone,
  }),
  PLANTSTORE_AUTH_FAILURE_LIMIT: setting({
    to: "ops.authFailureLimit",
    default: "60",
    meaning: "rejected credentials per minute per client address (0: no limit)",
    doc: "rejected credentials (401 `invalid_token`) per minute from one client address; over it, every request from that address to an operation that needs credentials gets 429 until the minute ends, before its token is even checked. Requests without credentials do not count. `0` disables",
    read: wholeNumber(0, 1_000_000_000),
    published: limitOrNone,
  }),
  PLANTSTORE_TRUST_PROXY: setting({
    to: "ops.trustProxy",
    default: "false",
    meaning: "believe X-Forwarded-For: false, true, a hop count, or proxy addresses/CIDRs",
    doc: "whether `X-Forwarded-For` names the client: `false` (the socket's peer is the client), `true` (believe it all — only when every path in goes through your proxy), a hop count, or the proxies' addresses/CIDRs, e.g. `10.0.0.0/8,127.0.0.1`",
    read: readTrustProxy,
  }),
  PLANTSTORE_CORS_ORIGINS: setting({
    to: "ops.corsOrigins",
    default: "",
    meaning: "origins browsers may call from, comma-separated, or * (empty: none)",
    doc: "origins a browser may call from, exact (`https://app.example.com`, comma-separated), or `*` for any. Empty: none",
    read: readCorsOrigins,
  }),
  PLANTSTORE_HEADERS_TIMEOUT_MS: setting({
    to: "ops.headersTimeoutMs",
    default: "10000",
    meaning: "request headers must arrive within (408)",
    doc: "request headers must arrive within this (else 408, connection closed)",
    read: wholeNumber(1000, 600_000),
    published: duration,
  }),
  PLANTSTORE_REQUEST_TIMEOUT_MS: setting({
    to: "ops.requestTimeoutMs",
    default: "30000",
    meaning: "a whole request must arrive within (408)",
    doc: "the whole request must arrive within this (408); not shorter than the headers timeout",
    read: wholeNumber(1000, 3_600_000),
    published: duration,
  }),
  PLANTSTORE_KEEPALIVE_TIMEOUT_MS: setting({
    to: "ops.keepAliveTimeoutMs",
    default: "72000",
    meaning: "an idle keep-alive connection is closed after",
    doc: "an idle keep-alive connection is closed after this; longer than common load balancer idle timeouts (60 s), so the balancer closes first",
    read: wholeNumber(1000, 600_000),
    published: duration,
  }),
  PLANTSTORE_SEND_TIMEOUT_MS: setting({
    to: "ops.sendTimeoutMs",
    default: "30000",
    meaning: "an answer the client has not taken within this is dropped",
    doc: "an answer must be taken by the client in full within this; a client that stops reading is dropped (its connection destroyed) once its unread backlog is this old",
    read: wholeNumber(100, 3_600_000),
    published: duration,
  }),
  PLANTSTORE_CLOSE_TIMEOUT_MS: setting({
    to: "ops.closeTimeoutMs",
    default: "5000",
    meaning: "a connection the server closed is destroyed after",
    doc: "once the server has closed its side of a connection (after a 400, 408 or 431, or `Connection: close`), the client has this long to close its own; then the connection is destroyed",
    read: wholeNumber(100, 600_000),
    published: duration,
  }),
  PLANTSTORE_MAX_CONNECTIONS: setting({
    to: "ops.maxConnections",
    default: "1000",
    meaning: "open connections at most; more are closed at once",
    doc: "open connections at most; one more is closed on arrival (and counted). Below the usual 1024 open-file limit, leaving room for the database",
    read: wholeNumber(1, 1_000_000),
  }),
  PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS: setting({
    to: "ops.maxConnectionsPerAddress",
    default: "500",
    meaning: "open connections one client address may hold (0: no cap)",
    doc: "open connections one client address (IPv6: one /64) may hold; one more is closed on arrival (and counted). Half the overall cap, so that no single client can take every slot while a busy backend with hundreds of connections still fits; lower it when the service faces the internet directly. Counted by the socket's peer: behind a proxy or load balancer, raise it above the connections the proxy opens, or set `0` for no cap",
    read: wholeNumber(0, 1_000_000),
    published: limitOrNone,
  }),
  PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS: setting({
    to: "ops.maxEventLoopDelayMs",
    default: "1000",
    meaning: "event-loop delay past which requests get 503 (0: never)",
    doc: "when the event loop lags more than this (sampled each second), requests get 503 with `Retry-After: 2` instead of queueing; `/healthz` and `/metrics` are still answered, and nothing is refused in the first 2 s after start (start-up's own work, not load). `0` disables",
    read: wholeNumber(0, 60_000),
  }),
  PLANTSTORE_SHUTDOWN_TIMEOUT_MS: setting({
    to: "ops.shutdownTimeoutMs",
    default: "10000",
    meaning: "graceful shutdown deadline; past it the process exits 1",
    read: wholeNumber(1000, 600_000),
  }),
  PLANTSTORE_WEBHOOK_TIMEOUT_MS: setting({
    to: "webhooks.timeoutMs",
    default: "10000",
    meaning: "webhooks: how long one attempt waits for the receiver's answer",
    doc: "webhooks: how long one delivery attempt may take, connecting and the whole answer included; then it counts as failed and is retried",
    read: wholeNumber(100, 60_000),
    published: duration,
  }),
  PLANTSTORE_WEBHOOK_RETRY_SCHEDULE: setting({
    to: "webhooks.retryScheduleMs",
    default: "5s,5m,30m,2h,5h,10h,10h",
    meaning: "webhooks: delays between attempts; after the last the delivery is failed",
    doc: "webhooks: the delays after a failed attempt before the next (`s`, `m`, `h` or `d`, comma-separated), each with up to 10 % random jitter; after the last the delivery is `failed` (it can still be retried by hand). The default spans about 28 hours",
    read: readRetrySchedule,
    published: delays,
  }),
  PLANTSTORE_WEBHOOK_RETENTION_DAYS: setting({
    to: "webhooks.retentionMs",
    default: "7",
    meaning: "webhooks: delivered and failed deliveries are purged after",
    doc: "webhooks: delivered and failed deliveries older than this many days are deleted from the delivery log (checked hourly by each instance, in bounded batches)",
    read: wholeDays(1, 36_500),
    published: days,
  }),
  PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: setting({
    to: "webhooks.allowPrivate",
    default: "false",
    meaning: "webhooks: allow http:// and loopback, private and link-local receivers",
    doc: "webhooks: `true` lets endpoints be `http://` and on loopback, private, link-local or metadata addresses (local receivers, tests), and registers a URL without looking its host up. Leave it `false` wherever users can register endpoints: it is what stops a URL from reaching the service's own network",
    read: readBoolean,
  }),
  PLANTSTORE_WEBHOOK_SEND: setting({
    to: "webhooks.send",
    default: "true",
    meaning: "webhooks: whether this instance sends them; false: it only records them",
    doc: "webhooks: `false` makes this instance store deliveries without sending any (nor purging old ones): for an instance that serves the API while others on the same PostgreSQL database send, or a server whose delivery log must stand still (the examples suite). With `PLANTSTORE_WORKERS` over 1, one worker sends unless this is `false`",
    read: readBoolean,
  }),
  PLANTSTORE_WEBHOOK_LEASE_MS: setting({
    to: "webhooks.leaseMs",
    default: "15000",
    meaning: "webhooks: how long an instance holds a claimed delivery; longer than the timeout",
    doc: "webhooks: how long an instance holds a delivery it claimed before another may take it over (after a crash); must exceed `PLANTSTORE_WEBHOOK_TIMEOUT_MS`",
    read: wholeNumber(1000, 600_000),
  }),
  PLANTSTORE_WEBHOOK_MAX_ENDPOINTS: setting({
    to: "ops.maxWebhookEndpoints",
    default: "100",
    meaning: "webhooks: most endpoints the store holds; registering more is refused",
    doc: "webhooks: most endpoints the store holds, enabled or not (every instance's); past it `POST /webhook-endpoints` answers 400 until one is deleted. Each endpoint receives every new plant, so this bounds the work one create sets off",
    read: wholeNumber(1, 100_000),
    published: count,
  }),
  PLANTSTORE_WEBHOOK_CONCURRENCY: setting({
    to: "webhooks.concurrency",
    default: "32",
    meaning: "webhooks: attempts one instance makes at once, overall",
    read: wholeNumber(1, 1000),
  }),
  PLANTSTORE_WEBHOOK_ENDPOINT_CONCURRENCY: setting({
    to: "webhooks.endpointConcurrency",
    default: "4",
    meaning: "webhooks: attempts one instance makes at once to one endpoint",
    doc: "webhooks: attempts one instance makes at once to one endpoint, so that a slow endpoint holds at most this many of the overall slots",
    read: wholeNumber(1, 1000),
  }),
  PLANTSTORE_WORKERS: setting({
    to: "workers",
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
  [Name in SettingName]: (typeof SETTINGS)[Name] extends Setting<infer T, string> ? T : never;
};

/** Where a setting's value lands (`to`), for each setting. */
export type SettingPaths = { [Name in SettingName]: (typeof SETTINGS)[Name]["to"] };
export type SettingPath = SettingPaths[SettingName];

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** The variable whose value lands at `path`: for a message about values checked together. */
export function nameOf(path: SettingPath): SettingName {
  const name = SETTING_NAMES.find((candidate) => SETTINGS[candidate].to === path);
  if (name === undefined) throw new Error(`no setting lands at ${path}`);
  return name;
}
