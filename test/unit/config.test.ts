import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.ts";

const cwd = "/srv/plantstore";

describe("configuration", () => {
  it("when nothing is set, then the documented defaults apply", () => {
    expect(loadConfig({}, cwd)).toEqual({
      port: 8080,
      host: "127.0.0.1",
      logLevel: "info",
      database: { engine: "sqlite", path: "/srv/plantstore/data/plants.db" },
      startupTimeoutMs: 30_000,
      tokens: undefined,
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
    });
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
  ])("when %j, then start-up is refused with a line naming the variable", (env, message) => {
    expect(() => loadConfig(env, cwd)).toThrow(ConfigError);
    expect(() => loadConfig(env, cwd)).toThrow(message);
  });
});
