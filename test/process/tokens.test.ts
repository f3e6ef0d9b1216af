// Managed tokens end to end: the command line against a real store, and running servers that
// pick up a new, revoked or expired token without a restart.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { issueToken } from "../../src/auth/issue-token.ts";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { waitUntilAsync } from "../helpers/auth.ts";
import { runCli } from "../helpers/cli.ts";
import { killLeftoverServers, type ServerProcess, startServer } from "../helpers/server-process.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";

afterEach(killLeftoverServers);

const post = async (server: ServerProcess, token: string): Promise<number> => {
  const response = await fetch(`${server.url}/plants`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: plantJson(uniqueId(), "via a managed token"),
    signal: AbortSignal.timeout(10_000),
  });
  await response.text();
  return response.status;
};

describe("the tokens command line, before any database is opened", () => {
  it.each([
    [["tokens", "create"], /--name must be/],
    [["tokens", "create", "--name", "x", "--expires-in", "3y"], /--expires-in must be like 90m/],
    [["tokens", "create", "--name", "x", "--scopes", " , "], /--scopes must list/],
    [
      ["tokens", "create", "--name", "x", "--scopes", "plants:read plants:wrte"],
      /"plants:wrte" is not a scope of this API; its scopes are plants:read, plants:write/,
    ],
    [["tokens", "create", "--name", "tok_x"], /--name must be/],
    [["tokens", "revoke"], /one NAME or ID/],
    [["tokens", "rotate"], /unknown tokens command "rotate"/],
    [["plants"], /unknown command "plants"/],
  ])("when run with %j, then it exits 2 with the reason and the usage", async (args, reason) => {
    const result = await runCli("sqlite:/nonexistent-dir/never-opened.db", args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).toContain("usage:");
    expect(result.stdout).toBe("");
  });
});

describe.each(storeEngines)("managed tokens end to end ($name)", (engine) => {
  let db: TestStore;
  beforeAll(async () => {
    db = await engine.create();
  });
  afterAll(async () => {
    await killLeftoverServers();
    await db?.destroy();
  });
  const cli = (...args: string[]) => runCli(db.url, args);

  it("when tokens are created, listed and revoked with the CLI, then the store holds what it says and no secret is shown twice", async () => {
    const name = `cli-${uniqueId()}`;
    const created = await cli(
      "tokens",
      "create",
      "--name",
      name,
      "--expires-in",
      "30d",
      "--scopes",
      "plants:write plants:read",
    );
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    expect(created.stdout).toMatch(/^ps_[0-9A-Za-z]{49}\n$/);
    expect(created.stderr).toMatch(
      new RegExp(`created token "${name}" \\(tok_\\w{11}\\), expires \\S+Z`),
    );

    const [record] = (await db.store.tokens.list()).filter((t) => t.name === name);
    expect(record).toMatchObject({
      name,
      scopes: ["plants:write", "plants:read"],
      revokedAt: null,
    });
    const days = ((record?.expiresAt?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const listed = await cli("tokens", "list");
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n")[0]).toMatch(
      /^ID\s+NAME\s+STATUS\s+CREATED\s+EXPIRES\s+LAST USED\s+SCOPES$/,
    );
    const row = listed.stdout.split("\n").find((line) => line.includes(name)) ?? "";
    expect(row).toMatch(
      new RegExp(
        `^${record?.id}\\s+${name}\\s+active\\s+\\S+Z\\s+\\S+Z\\s+never\\s+plants:write plants:read$`,
      ),
    );
    expect(listed.stdout + listed.stderr).not.toContain(token);
    expect(listed.stdout + listed.stderr).not.toContain(record?.hash);

    const again = await cli("tokens", "create", "--name", name);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    expect(again.stdout).toBe("");

    const revoked = await cli("tokens", "revoke", name);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`revoked token "${name}" \\(${record?.id}\\)`));
    const twice = await cli("tokens", "revoke", String(record?.id));
    expect(twice.code).toBe(0);
    expect(twice.stdout).toMatch(/was already revoked at/);
    expect((await cli("tokens", "list")).stdout).toMatch(new RegExp(`${name}\\s+revoked`));

    const unknown = await cli("tokens", "revoke", `nobody-${uniqueId()}`);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no token has the id/);
  });

  it("when the CLI creates and then revokes a token, then two running servers accept it and then both refuse it without a restart; its last use is listed after they stop", async () => {
    const servers = [
      await startServer({ databaseUrl: db.url }),
      await startServer({ databaseUrl: db.url }),
    ];
    const name = `live-${uniqueId()}`;
    const created = await cli("tokens", "create", "--name", name);
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    for (const server of servers) expect(await post(server, token)).toBe(200);

    expect((await cli("tokens", "revoke", name)).code).toBe(0);
    for (const server of servers) {
      await waitUntilAsync(
        async () => (await post(server, token)) === 401,
        `${server.url} refuses the revoked token`,
      );
    }
    for (const server of servers) expect(await server.stop()).toEqual({ code: 0, signal: null });
    const row = (await cli("tokens", "list")).stdout
      .split("\n")
      .find((line) => line.includes(name));
    expect(row).toMatch(/revoked\s+\S+Z\s+never\s+\S+Z\s+\(all\)$/);
    for (const server of servers) {
      const logs = server.stdoutLines().join("\n") + server.stderr();
      expect(logs).not.toContain(token);
      expect(logs).toContain(`"reason":"revoked"`);
    }
  });

  it("when a token expires while a server runs, then the server refuses it as expired", async () => {
    const server = await startServer({ databaseUrl: db.url });
    const { token } = await issueToken(db.store.tokens, {
      name: `brief-${uniqueId()}`,
      expiresInMs: 1500,
    });
    expect(await post(server, token)).toBe(200);
    await waitUntilAsync(
      async () => (await post(server, token)) === 401,
      "the expired token is refused",
    );
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(server.stdoutLines().join("\n")).toContain(`"reason":"expired"`);
  });
});
