// What a new user gets from `npm start` with nothing configured.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { killLeftoverServers, startServer } from "../helpers/server-process.ts";

const cwd = mkdtempSync(join(tmpdir(), "plantstore-first-start-"));
afterEach(killLeftoverServers);
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe("first start with no configuration", () => {
  it("when no token or database is configured, then ./data/plants.db is created and the printed token works", async () => {
    const server = await startServer({
      databasePath: "unused",
      cwd,
      env: { PLANTSTORE_TOKENS: undefined, DATABASE_URL: undefined },
    });
    const token = /accepts one generated bearer token:\n\s+(\S+)\n/.exec(server.stderr())?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(existsSync(join(cwd, "data", "plants.db"))).toBe(true);

    const id = uniqueId();
    const post = (authorization: string) =>
      fetch(`${server.url}/plants`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: plantJson(id, "Seedling"),
      });
    expect((await post(`Bearer ${token}`)).status).toBe(200);
    expect((await post("Bearer test-token-0123456789abcdef")).status).toBe(401);
    expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    // Printed once on stderr, and never logged.
    expect(server.stderr().split(String(token))).toHaveLength(2);
    expect(server.stdoutLines().join("\n")).not.toContain(String(token));

    const store = openSqliteStore(join(cwd, "data", "plants.db"));
    expect(await store.get(id)).toStrictEqual({ name: "Seedling" });
    await store.close();
  });
});
