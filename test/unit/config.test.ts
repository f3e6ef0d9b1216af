import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  loadConfig,
  type OpsConfig,
  redactUrl,
  SETTINGS,
} from "../../src/config/config.ts";
import { settingsMarkdown, settingsTable } from "../../src/config/help.ts";

const cwd = "/srv/plantstore";

const DEFAULT_OPS: OpsConfig = {
  metricsToken: undefined,
  tokenRateLimit: 6000,
  authFailureLimit: 60,
  trustProxy: false,
  corsOrigins: [],
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
  sendTimeoutMs: 30_000,
  closeTimeoutMs: 5000,
  maxConnections: 1000,
  maxConnectionsPerAddress: 500,
  maxEventLoopDelayMs: 1000,
  shutdownTimeoutMs: 10_000,
  maxWebhookEndpoints: 100,
  published: {
    PLANTSTORE_TOKEN_RATE_LIMIT: "6000",
    PLANTSTORE_AUTH_FAILURE_LIMIT: "60",
    PLANTSTORE_HEADERS_TIMEOUT_MS: "10 s",
    PLANTSTORE_REQUEST_TIMEOUT_MS: "30 s",
    PLANTSTORE_KEEPALIVE_TIMEOUT_MS: "72 s",
    PLANTSTORE_SEND_TIMEOUT_MS: "30 s",
    PLANTSTORE_CLOSE_TIMEOUT_MS: "5 s",
    PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS: "500",
    PLANTSTORE_WEBHOOK_TIMEOUT_MS: "10 s",
    PLANTSTORE_WEBHOOK_RETRY_SCHEDULE: "5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h",
    PLANTSTORE_WEBHOOK_RETENTION_DAYS: "7 days",
    PLANTSTORE_WEBHOOK_MAX_ENDPOINTS: "100",
  },
};

const DEFAULT_WEBHOOKS = {
  timeoutMs: 10_000,
  retryScheduleMs: [5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
  retentionMs: 7 * 86_400_000,
  allowPrivate: false,
  send: true,
  leaseMs: 15_000,
  concurrency: 32,
  endpointConcurrency: 4,
};

describe("configuration", () => {
  it("when nothing is set, then the documented defaults apply", () => {
    expect(loadConfig({}, cwd)).toEqual({
      port: 8080,
      host: "127.0.0.1",
      logLevel: "info",
      database: { engine: "sqlite", path: "/srv/plantstore/data/plants.db" },
      startupTimeoutMs: 30_000,
      tokens: undefined,
      tokenRetentionMs: 30 * 86_400_000,
      ops: DEFAULT_OPS,
      workers: 1,
      webhooks: DEFAULT_WEBHOOKS,
    });
  });

  it("when every setting is given, then each is used", () => {
    const config = loadConfig(
      {
        PORT: "0",
        HOST: "0.0.0.0",
        LOG_LEVEL: "WARN",
        DATABASE_URL: "sqlite:/var/lib/plants.db",
        DATABASE_STARTUP_TIMEOUT_MS: "0",
        PLANTSTORE_TOKENS: " token-aaaaaaaaaaaaaaaa , token-bbbbbbbbbbbbbbbb ,",
        PLANTSTORE_TOKEN_RETENTION_DAYS: "0",
        PLANTSTORE_METRICS_TOKEN: "metrics-token-0123456789",
        PLANTSTORE_TOKEN_RATE_LIMIT: "0",
        PLANTSTORE_AUTH_FAILURE_LIMIT: "5",
        PLANTSTORE_TRUST_PROXY: "10.0.0.0/8, 127.0.0.1, ::1",
        PLANTSTORE_CORS_ORIGINS: "https://app.example.com, http://localhost:3000",
        PLANTSTORE_HEADERS_TIMEOUT_MS: "2000",
        PLANTSTORE_REQUEST_TIMEOUT_MS: "5000",
        PLANTSTORE_KEEPALIVE_TIMEOUT_MS: "1000",
        PLANTSTORE_SEND_TIMEOUT_MS: "4000",
        PLANTSTORE_CLOSE_TIMEOUT_MS: "500",
        PLANTSTORE_MAX_CONNECTIONS: "10",
        PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS: "0",
        PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS: "0",
        PLANTSTORE_SHUTDOWN_TIMEOUT_MS: "3000",
        PLANTSTORE_WORKERS: "4",
        PLANTSTORE_WEBHOOK_TIMEOUT_MS: "500",
        PLANTSTORE_WEBHOOK_RETRY_SCHEDULE: "1s, 2m,3h,1d",
        PLANTSTORE_WEBHOOK_RETENTION_DAYS: "1",
        PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "true",
        PLANTSTORE_WEBHOOK_LEASE_MS: "2000",
        PLANTSTORE_WEBHOOK_CONCURRENCY: "8",
        PLANTSTORE_WEBHOOK_ENDPOINT_CONCURRENCY: "2",
        PLANTSTORE_WEBHOOK_MAX_ENDPOINTS: "7",
      },
      cwd,
    );
    expect(config).toEqual({
      port: 0,
      host: "0.0.0.0",
      logLevel: "warn",
      database: { engine: "sqlite", path: "/var/lib/plants.db" },
      startupTimeoutMs: 0,
      tokens: ["token-aaaaaaaaaaaaaaaa", "token-bbbbbbbbbbbbbbbb"],
      tokenRetentionMs: 0,
      ops: {
        metricsToken: "metrics-token-0123456789",
        tokenRateLimit: 0,
        authFailureLimit: 5,
        trustProxy: ["10.0.0.0/8", "127.0.0.1", "::1"],
        corsOrigins: ["https://app.example.com", "http://localhost:3000"],
        headersTimeoutMs: 2000,
        requestTimeoutMs: 5000,
        keepAliveTimeoutMs: 1000,
        sendTimeoutMs: 4000,
        closeTimeoutMs: 500,
        maxConnections: 10,
        maxConnectionsPerAddress: 0,
        maxEventLoopDelayMs: 0,
        shutdownTimeoutMs: 3000,
        maxWebhookEndpoints: 7,
        published: {
          PLANTSTORE_TOKEN_RATE_LIMIT: "no limit",
          PLANTSTORE_AUTH_FAILURE_LIMIT: "5",
          PLANTSTORE_HEADERS_TIMEOUT_MS: "2 s",
          PLANTSTORE_REQUEST_TIMEOUT_MS: "5 s",
          PLANTSTORE_KEEPALIVE_TIMEOUT_MS: "1 s",
          PLANTSTORE_SEND_TIMEOUT_MS: "4 s",
          PLANTSTORE_CLOSE_TIMEOUT_MS: "500 ms",
          PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS: "no limit",
          PLANTSTORE_WEBHOOK_TIMEOUT_MS: "500 ms",
          PLANTSTORE_WEBHOOK_RETRY_SCHEDULE: "1 s, 2 min, 3 h and 1 d",
          PLANTSTORE_WEBHOOK_RETENTION_DAYS: "1 day",
          PLANTSTORE_WEBHOOK_MAX_ENDPOINTS: "7",
        },
      },
      workers: 4,
      webhooks: {
        timeoutMs: 500,
        retryScheduleMs: [1000, 120_000, 10_800_000, 86_400_000],
        retentionMs: 86_400_000,
        allowPrivate: true,
        send: true,
        leaseMs: 2000,
        concurrency: 8,
        endpointConcurrency: 2,
      },
    });
  });

  it.each([
    ["true", true],
    ["TRUE", true],
    ["false", false],
    ["", false],
    ["2", 2],
    ["fd00::/8", ["fd00::/8"]],
  ])("when PLANTSTORE_TRUST_PROXY is %j, then it is %j", (raw, expected) => {
    expect(loadConfig({ PLANTSTORE_TRUST_PROXY: raw }, cwd).ops.trustProxy).toEqual(expected);
  });

  it.each([
    [{ PLANTSTORE_WEBHOOK_RETRY_SCHEDULE: "5s,,5m" }, "PLANTSTORE_WEBHOOK_RETRY_SCHEDULE"],
    [{ PLANTSTORE_WEBHOOK_RETRY_SCHEDULE: "0s" }, "PLANTSTORE_WEBHOOK_RETRY_SCHEDULE"],
    [{ PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "yes" }, "PLANTSTORE_WEBHOOK_ALLOW_PRIVATE"],
    [{ PLANTSTORE_WEBHOOK_LEASE_MS: "10000" }, "must exceed PLANTSTORE_WEBHOOK_TIMEOUT_MS"],
  ])("when the webhook settings are %j, then start-up stops naming %s", (env, named) => {
    expect(() => loadConfig(env, cwd)).toThrow(named);
  });

  it("when PLANTSTORE_CORS_ORIGINS is *, then any origin is allowed", () => {
    expect(loadConfig({ PLANTSTORE_CORS_ORIGINS: " * " }, cwd).ops.corsOrigins).toBe("*");
  });

  it.each([
    ["sqlite:plants.db", "/srv/plantstore/plants.db"],
    ["sqlite:./a/b.db", "/srv/plantstore/a/b.db"],
    ["sqlite:///abs/plants.db", "/abs/plants.db"],
    ["sqlite://rel/plants.db", "/srv/plantstore/rel/plants.db"],
    ["SQLite:plants.db", "/srv/plantstore/plants.db"],
  ])("when DATABASE_URL is %s, then the file is %s", (url, path) => {
    expect(loadConfig({ DATABASE_URL: url }, cwd).database).toEqual({ engine: "sqlite", path });
  });

  it("when DATABASE_URL is postgres://, then the pool has the documented defaults", () => {
    const url = "postgres://app:secret@db.internal:5432/plants?sslmode=require";
    expect(loadConfig({ DATABASE_URL: url }, cwd).database).toEqual({
      engine: "postgres",
      url,
      driverUrl: url,
      hosts: [{ host: "db.internal", port: 5432 }],
      targetSessionAttrs: "any",
      prepare: undefined,
      poolMax: 10,
      connectTimeoutMs: 5000,
      idleTimeoutMs: 30_000,
      queryTimeoutMs: 10_000,
    });
  });

  it("when the pool settings are given, then each is used", () => {
    const database = loadConfig(
      {
        DATABASE_URL: "postgresql://postgres@127.0.0.1/plants",
        DATABASE_POOL_MAX: "3",
        DATABASE_CONNECT_TIMEOUT_MS: "250",
        DATABASE_IDLE_TIMEOUT_MS: "1000",
        DATABASE_QUERY_TIMEOUT_MS: "2000",
      },
      cwd,
    ).database;
    expect(database).toMatchObject({
      engine: "postgres",
      poolMax: 3,
      connectTimeoutMs: 250,
      idleTimeoutMs: 1000,
      queryTimeoutMs: 2000,
    });
  });

  it.each([
    [
      "postgres://app@h1:5442,h2:5443/plants?target_session_attrs=read-write",
      [
        { host: "h1", port: 5442 },
        { host: "h2", port: 5443 },
      ],
      "read-write",
    ],
    [
      "postgresql://app@10.0.0.1,10.0.0.2:6000,[::1]:5433/plants?target_session_attrs=primary",
      [
        { host: "10.0.0.1", port: 5432 },
        { host: "10.0.0.2", port: 6000 },
        { host: "::1", port: 5433 },
      ],
      "primary",
    ],
    // Several hosts are listed to find the writable one, so that is what they are searched for.
    [
      "postgres://app@h1,h2/plants",
      [
        { host: "h1", port: 5432 },
        { host: "h2", port: 5432 },
      ],
      "read-write",
    ],
    ["postgres://app@h1/plants?target_session_attrs=any", [{ host: "h1", port: 5432 }], "any"],
  ])(
    "when DATABASE_URL is %s, then the hosts are %j, tried for a %s session",
    (url, hosts, attrs) => {
      const database = loadConfig({ DATABASE_URL: url }, cwd).database;
      expect(database).toMatchObject({ engine: "postgres", url, hosts, targetSessionAttrs: attrs });
    },
  );

  it("when DATABASE_URL lists several hosts, then the driver is given the first and none of the options read here", () => {
    const database = loadConfig(
      {
        DATABASE_URL:
          "postgres://app:pw@h1:5442,h2:5443/plants?sslmode=require&target_session_attrs=read-write&prepare=false",
      },
      cwd,
    ).database;
    expect(database).toMatchObject({
      driverUrl: "postgres://app:pw@h1:5442/plants?sslmode=require",
      prepare: false,
    });
  });

  it("when a URL with several hosts and a password is shown, then the password is masked", () => {
    const url = "postgres://app:hunter2@h1:5442,h2:5443/plants?target_session_attrs=read-write";
    expect(redactUrl(url)).toBe(
      "postgres://app:***@h1:5442,h2:5443/plants?target_session_attrs=read-write",
    );
    expect(() => loadConfig({ DATABASE_URL: "postgres://u:hunter2@h1,h2" }, cwd)).toThrow(
      /must name a host and a database, .*postgres:\/\/u:\*\*\*@h1,h2$/,
    );
  });

  it("when a URL with a password is refused, then the message masks the password", () => {
    expect(() => loadConfig({ DATABASE_URL: "postgres://u:hunter2@host/" }, cwd)).toThrow(
      /postgres:\/\/u:\*\*\*@host\//,
    );
    expect(() => loadConfig({ DATABASE_URL: "postgres://u:hunter2@host/" }, cwd)).not.toThrow(
      /hunter2/,
    );
  });

  it.each([
    [{ PORT: "http" }, /^PORT must be an integer from 0 to 65535/],
    [{ PORT: "65536" }, /^PORT/],
    [{ PORT: "-1" }, /^PORT/],
    [{ PORT: "80.5" }, /^PORT/],
    [{ HOST: " " }, /^HOST/],
    [{ LOG_LEVEL: "verbose" }, /^LOG_LEVEL must be one of/],
    [
      { DATABASE_URL: "mysql://localhost/plants" },
      /^DATABASE_URL must be sqlite:PATH or postgres:.*"mysql:"/,
    ],
    [{ DATABASE_URL: "plants.db" }, /^DATABASE_URL must be sqlite:PATH/],
    [{ DATABASE_URL: "postgres://[bad/db" }, /^DATABASE_URL is not a valid postgres:\/\/ URL/],
    [{ DATABASE_URL: "postgres://host" }, /^DATABASE_URL must name a host and a database/],
    [{ DATABASE_URL: "postgres://h1:5432,h2:99999/db" }, /^DATABASE_URL is not a valid postgres/],
    [
      { DATABASE_URL: "postgres://h1,h2/db?target_session_attrs=standby" },
      /^DATABASE_URL's target_session_attrs must be read-write, primary or any .*"standby"/,
    ],
    [
      { DATABASE_URL: "postgres://h1/db?target_session_attrs=read-only" },
      /^DATABASE_URL's target_session_attrs must be/,
    ],
    [
      { DATABASE_URL: "postgres://h1/db?prepare=no" },
      /^DATABASE_URL's prepare must be true or false/,
    ],
    [
      { DATABASE_URL: "postgres://host/db", DATABASE_POOL_MAX: "0" },
      /^DATABASE_POOL_MAX must be a whole number from 1 to 1000/,
    ],
    [{ DATABASE_URL: "postgres://host/db", DATABASE_POOL_MAX: "ten" }, /^DATABASE_POOL_MAX/],
    [
      { DATABASE_URL: "postgres://host/db", DATABASE_QUERY_TIMEOUT_MS: "1.5" },
      /^DATABASE_QUERY_TIMEOUT_MS/,
    ],
    [
      { DATABASE_URL: "postgres://host/db", DATABASE_CONNECT_TIMEOUT_MS: "" },
      /^DATABASE_CONNECT_TIMEOUT_MS/,
    ],
    [{ DATABASE_STARTUP_TIMEOUT_MS: "-1" }, /^DATABASE_STARTUP_TIMEOUT_MS/],
    [{ DATABASE_URL: "sqlite:" }, /^DATABASE_URL must name a file after sqlite:/],
    [{ DATABASE_URL: "sqlite://" }, /^DATABASE_URL must name a file after sqlite:/],
    [{ DATABASE_URL: "sqlite::memory:" }, /would not keep plants across restarts/],
    [{ PLANTSTORE_TOKENS: " , " }, /^PLANTSTORE_TOKENS is set but holds no token/],
    [{ PLANTSTORE_TOKENS: "short" }, /^PLANTSTORE_TOKENS entry 1 must be at least 16/],
    [{ PLANTSTORE_TOKENS: "token-aaaaaaaaaaaaaaaa,bad token with spaces" }, /entry 2/],
    [{ PLANTSTORE_METRICS_TOKEN: "short" }, /^PLANTSTORE_METRICS_TOKEN must be at least 16/],
    [{ PLANTSTORE_TOKEN_RATE_LIMIT: "-5" }, /^PLANTSTORE_TOKEN_RATE_LIMIT must be a whole number/],
    [{ PLANTSTORE_AUTH_FAILURE_LIMIT: "many" }, /^PLANTSTORE_AUTH_FAILURE_LIMIT/],
    [{ PLANTSTORE_TRUST_PROXY: "yes" }, /^PLANTSTORE_TRUST_PROXY must be false, true/],
    [{ PLANTSTORE_TRUST_PROXY: "10.0.0.0/33" }, /^PLANTSTORE_TRUST_PROXY/],
    [{ PLANTSTORE_TRUST_PROXY: "0" }, /^PLANTSTORE_TRUST_PROXY/],
    [{ PLANTSTORE_CORS_ORIGINS: "https://app.example.com/" }, /^PLANTSTORE_CORS_ORIGINS must be/],
    [{ PLANTSTORE_CORS_ORIGINS: "app.example.com" }, /^PLANTSTORE_CORS_ORIGINS/],
    [{ PLANTSTORE_CORS_ORIGINS: "*, https://a.example" }, /^PLANTSTORE_CORS_ORIGINS.*"\*"/],
    [{ PLANTSTORE_CORS_ORIGINS: "null" }, /^PLANTSTORE_CORS_ORIGINS/],
    [{ PLANTSTORE_CORS_ORIGINS: "ftp://files.example" }, /^PLANTSTORE_CORS_ORIGINS/],
    [{ PLANTSTORE_HEADERS_TIMEOUT_MS: "999" }, /^PLANTSTORE_HEADERS_TIMEOUT_MS/],
    [
      { PLANTSTORE_HEADERS_TIMEOUT_MS: "20000", PLANTSTORE_REQUEST_TIMEOUT_MS: "10000" },
      /^PLANTSTORE_REQUEST_TIMEOUT_MS \(10000\) must not be shorter than PLANTSTORE_HEADERS_TIMEOUT_MS/,
    ],
    [{ PLANTSTORE_KEEPALIVE_TIMEOUT_MS: "0" }, /^PLANTSTORE_KEEPALIVE_TIMEOUT_MS/],
    [{ PLANTSTORE_MAX_CONNECTIONS: "0" }, /^PLANTSTORE_MAX_CONNECTIONS/],
    [{ PLANTSTORE_SEND_TIMEOUT_MS: "50" }, /^PLANTSTORE_SEND_TIMEOUT_MS/],
    [{ PLANTSTORE_CLOSE_TIMEOUT_MS: "0" }, /^PLANTSTORE_CLOSE_TIMEOUT_MS/],
    [{ PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS: "-1" }, /^PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS/],
    [{ PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS: "1e3" }, /^PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS/],
    [{ PLANTSTORE_SHUTDOWN_TIMEOUT_MS: "500" }, /^PLANTSTORE_SHUTDOWN_TIMEOUT_MS/],
    [{ PLANTSTORE_WORKERS: "0" }, /^PLANTSTORE_WORKERS must be a whole number from 1 to 64/],
    [{ PLANTSTORE_TOKEN_RETENTION_DAYS: "7d" }, /^PLANTSTORE_TOKEN_RETENTION_DAYS/],
    [{ PLANTSTORE_WORKERS: "65" }, /^PLANTSTORE_WORKERS must be a whole number from 1 to 64/],
  ])("when %j, then start-up is refused with a line naming the variable", (env, message) => {
    expect(() => loadConfig(env, cwd)).toThrow(ConfigError);
    expect(() => loadConfig(env, cwd)).toThrow(message);
  });
});

describe("the list of settings", () => {
  /** Every variable loadConfig reads, whatever the engine. */
  function variablesRead(): string[] {
    const read = new Set<string>();
    const jwt = {
      PLANTSTORE_JWT_ISSUER: "https://id.example",
      PLANTSTORE_JWT_AUDIENCE: "plantstore",
      PLANTSTORE_JWT_HS256_SECRET: "s".repeat(32),
    };
    for (const base of [{}, { DATABASE_URL: "postgres://host/db" }, jwt]) {
      const env = new Proxy(base as Record<string, string | undefined>, {
        get(target, name) {
          if (typeof name === "string") read.add(name);
          return target[name as string];
        },
      });
      loadConfig(env, cwd);
    }
    return [...read].sort();
  }

  it("when loadConfig reads a variable, then SETTINGS describes it, and nothing else", () => {
    expect(Object.keys(SETTINGS).sort()).toEqual(variablesRead());
  });

  it("when docs/operating.md is read, then its table of settings is the one SETTINGS makes (npm run generate)", () => {
    const page = readFileSync(new URL("../../docs/operating.md", import.meta.url), "utf8");
    expect(page).toContain(settingsMarkdown());
  });

  it("when settings hold secrets, then the table masks them and shows the rest", () => {
    const table = settingsTable({
      DATABASE_URL: "postgres://app:hunter2@db.internal/plants",
      PLANTSTORE_TOKENS: "token-aaaaaaaaaaaaaaaa,token-bbbbbbbbbbbbbbbb",
      PLANTSTORE_METRICS_TOKEN: "metrics-token-0123456789",
      PORT: "9090",
    });
    for (const secret of ["hunter2", "token-aaaa", "token-bbbb", "metrics-token"]) {
      expect(table).not.toContain(secret);
    }
    expect(table).toMatch(/^DATABASE_URL .*postgres:\/\/app:\*\*\*@db\.internal\/plants/m);
    expect(table).toMatch(/^PLANTSTORE_TOKENS .*\*\*\* \(2 tokens\)/m);
    expect(table).toMatch(/^PORT +8080 +9090 /m);
    expect(table).toMatch(/^HOST +127\.0\.0\.1 +127\.0\.0\.1 \(default\)/m);
    expect(table.trimEnd().split("\n")).toHaveLength(Object.keys(SETTINGS).length + 1);
  });
});

describe("PLANTSTORE_PUBLIC_URL", () => {
  it("when unset or empty, then the document names the listening address (undefined here)", () => {
    expect(loadConfig({}).publicUrl).toBeUndefined();
    expect(loadConfig({ PLANTSTORE_PUBLIC_URL: " " }).publicUrl).toBeUndefined();
  });

  it.each([
    ["https://plants.example.com", "https://plants.example.com"],
    ["https://plants.example.com/", "https://plants.example.com"],
    ["http://10.0.0.5:8080/api/", "http://10.0.0.5:8080/api"],
  ])("when it is %s, then the document names %s", (raw, expected) => {
    expect(loadConfig({ PLANTSTORE_PUBLIC_URL: raw }).publicUrl).toBe(expected);
  });

  it.each([
    "plants.example.com",
    "ftp://plants.example.com",
    "https://user:pw@plants.example.com",
    "https://plants.example.com/?x=1",
    "https://plants.example.com/#top",
  ])("when it is %s, then start-up stops naming the variable", (raw) => {
    expect(() => loadConfig({ PLANTSTORE_PUBLIC_URL: raw })).toThrow(
      new ConfigError(
        `PLANTSTORE_PUBLIC_URL must be an http:// or https:// URL without credentials, query or fragment, e.g. https://plants.example.com, got "${raw}"`,
      ),
    );
  });
});
