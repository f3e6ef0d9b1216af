// Schema migrations as operators meet them, on every engine: servers starting together on an
// empty database, a schema newer than this build, and `npm run migrate`.
import { afterEach, describe, expect, test } from "vitest";
import { POSTGRES_MIGRATIONS } from "../../src/store/postgres/migrations.ts";
import { SQLITE_SCHEMA_VERSION } from "../../src/store/sqlite/migrations.ts";
import type { Store } from "../../src/store/store.ts";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { type EmptyDatabase, emptyDatabaseKinds, openStoreAt } from "../helpers/empty-databases.ts";
import { waitUntil } from "../helpers/load.ts";
import { linesOf, runMigrate, runServerToExit } from "../helpers/run-process.ts";
import { killLeftoverServers, startServer } from "../helpers/server-process.ts";
import { expectPlantAnswer, post } from "../helpers/socket-http.ts";
import { startTcpGate, type TcpGate, throughGate } from "../helpers/tcp-gate.ts";
import { hostAndPort } from "../helpers/tcp-proxy.ts";

/** The schema version this plantstore migrates an engine to, and every version before it. */
const latestOf = (engine: string): number =>
  engine === "sqlite" ? SQLITE_SCHEMA_VERSION : POSTGRES_MIGRATIONS.length;
const versionsOf = (engine: string): number[] =>
  Array.from({ length: latestOf(engine) }, (_, i) => i + 1);
const SERVERS_AT_ONCE = 4;

let db: EmptyDatabase | undefined;
let store: Store | undefined;
let gate: TcpGate | undefined;

afterEach(async () => {
  await killLeftoverServers();
  await gate?.close();
  gate = undefined;
  await store?.close();
  await db?.drop();
  store = undefined;
  db = undefined;
});

describe.each(emptyDatabaseKinds)("schema migrations on $name", (kind) => {
  test("when 4 servers start at once on one empty database, then all 4 come up and serve creates, and each schema version is recorded once", async () => {
    db = await kind.create();
    const { url } = db;
    // PostgreSQL: hold each server's first connection until all 4 have one, so their
    // migrations overlap. SQLite has no socket to hold; its servers overlap as they start.
    gate = kind.name === "postgres" ? await startTcpGate(hostAndPort(url)) : undefined;
    const serverUrl = gate === undefined ? url : throughGate(url, gate);

    const starting = Promise.all(
      Array.from({ length: SERVERS_AT_ONCE }, () =>
        startServer({
          databaseUrl: serverUrl,
          env: { DATABASE_CONNECT_TIMEOUT_MS: "40000" },
          startTimeoutMs: 45_000,
        }),
      ),
    );
    starting.catch(() => undefined); // awaited below; this only keeps an early failure handled
    if (gate !== undefined) {
      const held = gate;
      await waitUntil(() => held.held() >= SERVERS_AT_ONCE, "every server is connecting", 40_000);
      held.release();
    }
    const servers = await starting;

    expect(await db.versions()).toEqual(versionsOf(kind.name));
    const created = await Promise.all(
      servers.map(async (server, i) => {
        const id = uniqueId();
        const plant = { name: `migrated together ${i}`, tag: kind.name };
        expectPlantAnswer(await post(server.url, plantJson(id, plant.name, plant.tag)), plant);
        return { id, plant };
      }),
    );
    store = await openStoreAt(url);
    for (const { id, plant } of created) {
      expect(await store.resources.plants.get(id)).toStrictEqual({ id, ...plant });
    }
    const exits = await Promise.all(servers.map((server) => server.stop()));
    expect(exits).toEqual(servers.map(() => ({ code: 0, signal: null })));
  });

  test("when the database records a schema version newer than this plantstore knows, then start-up exits 1 with one line saying so and the schema is left as it was", async () => {
    db = await kind.create();
    // A first start's worth: the schema this plantstore knows, and a plant in it.
    store = await openStoreAt(db.url);
    await store.resources.plants.create({ id: uniqueId(), name: "before the upgrade" });
    await store.close();
    store = undefined;
    await db.recordVersion(99);
    const versions = await db.versions();

    const { code, stdout, stderr } = await runServerToExit({ DATABASE_URL: db.url });

    expect(code, stderr).toBe(1);
    expect(linesOf(stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^plantstore: cannot open the database at .+: the database schema is version 99, newer than this plantstore knows \\(${latestOf(kind.name)}\\); upgrade plantstore$`,
        ),
      ),
    ]);
    expect(stdout).not.toContain("Server listening");
    expect(await db.versions()).toEqual(versions);
  });

  test("when npm run migrate runs twice on an empty database, then the first run migrates it from schema version 0 to the latest, the second has nothing to do, both exit 0, and each version is recorded once", async () => {
    db = await kind.create();

    const first = await runMigrate({ DATABASE_URL: db.url });
    expect(first.code, first.stderr).toBe(0);
    expect(linesOf(first.stdout)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^plantstore: migrated ${kind.name} .+ from schema version 0 to ${latestOf(kind.name)}$`,
        ),
      ),
    ]);
    expect(await db.versions()).toEqual(versionsOf(kind.name));

    const second = await runMigrate({ DATABASE_URL: db.url });
    expect(second.code, second.stderr).toBe(0);
    expect(linesOf(second.stdout)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^plantstore: ${kind.name} .+ is at schema version ${latestOf(kind.name)}; nothing to do$`,
        ),
      ),
    ]);
    expect(await db.versions()).toEqual(versionsOf(kind.name));
  });
});

describe("npm run migrate with a bad DATABASE_URL", () => {
  test("when DATABASE_URL names no database, then it exits 1 with one line of invalid configuration that does not show the password", async () => {
    const { code, stdout, stderr } = await runMigrate({
      DATABASE_URL: "postgres://plantstore:s3cret-pw@127.0.0.1:5432/",
    });

    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(linesOf(stderr)).toEqual([
      expect.stringMatching(/^plantstore: invalid configuration: DATABASE_URL must name/),
    ]);
    expect(stderr).not.toContain("s3cret-pw");
  });
});
