// What a new user gets from `npm start` with nothing configured.

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { killLeftoverServers, startServer } from "../helpers/server-process.ts";
import { DATA } from "../helpers/stores.ts";

const cwd = mkdtempSync(join(tmpdir(), "plantstore-first-start-"));
afterEach(killLeftoverServers);
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const INITIAL_TOKEN =
  /created the managed token "initial" \((tok_\w+)\)\. It is shown this once:\n\s+(\S+)\n/;
const startUnconfigured = () =>
  startServer({
    databasePath: "unused",
    cwd,
    env: { PLANTSTORE_TOKENS: undefined, DATABASE_URL: undefined },
  });

describe("first start with no configuration", () => {
  it("when no token or database is configured, then ./data/plants.db is created and the printed managed token works, and a second start prints none", async () => {
    const server = await startUnconfigured();
    const [, id, token] = INITIAL_TOKEN.exec(server.stderr()) ?? [];
    expect(token).toMatch(/^ps_[0-9A-Za-z]{49}$/);
    expect(existsSync(join(cwd, "data", "plants.db"))).toBe(true);

    const plantId = uniqueId();
    const post = (url: string, authorization: string) =>
      fetch(`${url}/plants`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: plantJson(plantId, "Seedling"),
      });
    expect((await post(server.url, `Bearer ${token}`)).status).toBe(200);
    expect((await post(server.url, "Bearer test-token-0123456789abcdef")).status).toBe(401);
    expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    // Printed once on stderr, and never logged.
    expect(server.stderr().split(String(token))).toHaveLength(2);
    expect(server.stdoutLines().join("\n")).not.toContain(String(token));

    const store = openSqliteStore(join(cwd, "data", "plants.db"), { data: DATA });
    expect(await store.resources.plants.get(plantId)).toStrictEqual({
      id: plantId,
      name: "Seedling",
    });
    const [initial] = await store.tokens.list();
    expect(initial).toMatchObject({ id, name: "initial", scopes: null, expiresAt: null });
    expect(initial?.hash).not.toContain(String(token));
    await store.close();

    const again = await startUnconfigured();
    expect(again.stderr()).not.toMatch(/initial|ps_/);
    expect((await post(again.url, `Bearer ${token}`)).status).toBe(200);
    expect(await again.stop("SIGTERM")).toEqual({ code: 0, signal: null });

    // With "initial" revoked nothing can authenticate: the start says so, and creates no token.
    const reopened = openSqliteStore(join(cwd, "data", "plants.db"), { data: DATA });
    await reopened.tokens.revoke("initial", new Date());
    await reopened.close();
    const locked = await startUnconfigured();
    expect(locked.stderr()).toMatch(
      /^plantstore: no usable token: .*tokens create --name NAME`\n$/,
    );
    expect((await post(locked.url, `Bearer ${token}`)).status).toBe(401);
    expect(await locked.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  });
});
