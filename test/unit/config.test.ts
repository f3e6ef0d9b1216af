import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.ts";

const cwd = "/srv/plantstore";

describe("configuration", () => {
  it("when nothing is set, then the documented defaults apply", () => {
    expect(loadConfig({}, cwd)).toEqual({
      port: 8080,
      host: "127.0.0.1",
      logLevel: "info",
      databasePath: "/srv/plantstore/data/plants.db",
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
        PLANTSTORE_TOKENS: " token-aaaaaaaaaaaaaaaa , token-bbbbbbbbbbbbbbbb ,",
      },
      cwd,
    );
    expect(config).toEqual({
      port: 0,
      host: "0.0.0.0",
      logLevel: "warn",
      databasePath: "/var/lib/plants.db",
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
    expect(loadConfig({ DATABASE_URL: url }, cwd).databasePath).toBe(path);
  });

  it.each([
    [{ PORT: "http" }, /^PORT must be an integer from 0 to 65535/],
    [{ PORT: "65536" }, /^PORT/],
    [{ PORT: "-1" }, /^PORT/],
    [{ PORT: "80.5" }, /^PORT/],
    [{ HOST: " " }, /^HOST/],
    [{ LOG_LEVEL: "verbose" }, /^LOG_LEVEL must be one of/],
    [{ DATABASE_URL: "postgres://localhost/plants" }, /only SQLite is supported.*"postgres:"/],
    [{ DATABASE_URL: "plants.db" }, /^DATABASE_URL must be sqlite:PATH/],
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
