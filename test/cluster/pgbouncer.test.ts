// PgBouncer 1.18 as Debian ships it, in transaction mode and otherwise with its defaults, in
// front of two instances given the plain DATABASE_URL: they start (no connection parameter
// PgBouncer would refuse), answer concurrent clients without one wrong answer, and the server
// still cancels a statement at DATABASE_QUERY_TIMEOUT_MS, reads included.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { plantJson, TOKEN, uniqueId } from "../helpers/app.ts";
import { lostWrites, startMixedLoad, tally, wrongAnswers } from "../helpers/mixed-load.ts";
import { type PgBouncer, startPgBouncer } from "../helpers/pgbouncer.ts";
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/postgres.ts";
import { killLeftoverServers, type ServerProcess, startServer } from "../helpers/server-process.ts";
import { expectErrorAnswer, post } from "../helpers/socket-http.ts";
import { skipClusterSuite } from "../helpers/system.ts";
import { hostAndPort } from "../helpers/tcp-proxy.ts";

const skip = TEST_DATABASE_URL === undefined || skipClusterSuite();

describe.skipIf(skip)(
  "PgBouncer in transaction mode, with its defaults, in front of two instances",
  () => {
    let db: TestDatabase;
    let bouncer: PgBouncer;
    let servers: ServerProcess[] = [];
    /** Straight to PostgreSQL, for what the test itself does to the database. */
    let admin: postgres.Sql;

    beforeAll(async () => {
      db = await createTestDatabase();
      admin = postgres(db.url, { max: 3, onnotice: () => undefined });
      bouncer = await startPgBouncer(hostAndPort(db.url));
      servers = await Promise.all(
        [1, 2].map(() =>
          startServer({
            databaseUrl: bouncer.url(db.name),
            // Short enough for the lock tests below; long enough that a loaded machine never
            // runs into it under the load test.
            env: { DATABASE_QUERY_TIMEOUT_MS: "3000", PLANTSTORE_TOKEN_RATE_LIMIT: "0" },
          }),
        ),
      );
    }, 60_000);

    afterAll(async () => {
      try {
        for (const server of servers)
          expect(await server.stop()).toEqual({ code: 0, signal: null });
      } finally {
        await killLeftoverServers();
        await bouncer?.stop();
        await admin?.end({ timeout: 1 });
        await db?.drop();
      }
    });

    test("when the instances start with the plain URL, then each finds the pooler and says so", async () => {
      for (const server of servers) {
        const lines = await server.waitForStdout((all) =>
          all.some((l) => l.includes("store opened")),
        );
        const opened = lines.find((l) => l.includes("store opened")) ?? "";
        expect(opened).toContain("through a connection pooler");
        expect(opened).not.toContain("bouncer-test-password");
      }
    });

    test("when 24 clients create, read back and delete plants through both instances, then every answer is right, none hangs, and the database holds exactly what was acknowledged", async () => {
      const load = startMixedLoad({
        servers: servers.map((s) => s.url),
        clients: 24,
        requestTimeoutMs: 15_000,
        untilCreated: 600,
        maxDurationMs: 120_000,
      });
      const calls = await load.done;
      expect(wrongAnswers(calls)).toEqual([]);
      // No outage here: a 503 would be the pooler mixing the instances' statements up.
      expect(calls.filter((c) => c.status === 503).length, JSON.stringify(tally(calls))).toBe(0);
      expect(load.count("create", 200)).toBeGreaterThanOrEqual(600);
      expect(load.count("get-deleted", 404)).toBeGreaterThan(50);

      const rows = await admin<{ id: string; name: string; tag: string | null }[]>`
      SELECT id::text AS id, name, tag FROM plants`;
      const stored = new Map(rows.map((r) => [r.id, { name: r.name, tag: r.tag }]));
      expect(lostWrites(calls, stored)).toEqual([]);
    });

    test("when a create waits on a lock past DATABASE_QUERY_TIMEOUT_MS, then the server cancels it and the create gets 503", async () => {
      const id = uniqueId();
      const [server] = servers;
      if (server === undefined) throw new Error("no server");
      await holdingLock(`INSERT INTO plants (id, name) VALUES (${id}, 'held')`, async () => {
        const answer = await post(server.url, plantJson(id, "waiting"));
        expectErrorAnswer(answer, 503);
      });
      await expectCancelledByServer(server);
    });

    test("when a read waits on a lock past DATABASE_QUERY_TIMEOUT_MS, then the server cancels it too and the read gets 503", async () => {
      const [, server] = servers;
      if (server === undefined) throw new Error("no server");
      await holdingLock("LOCK TABLE plants IN ACCESS EXCLUSIVE MODE", async () => {
        const response = await fetch(`${server.url}/plants/${uniqueId()}`, {
          headers: { authorization: `Bearer ${TOKEN}` },
          signal: AbortSignal.timeout(15_000),
        });
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      });
      await expectCancelledByServer(server);
    });

    /** Runs `while` with `statement` holding its locks in an open transaction, then rolls back. */
    async function holdingLock(statement: string, whileHeld: () => Promise<void>): Promise<void> {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let held: () => void = () => undefined;
      const isHeld = new Promise<void>((resolve) => {
        held = resolve;
      });
      const holding = admin
        .begin(async (tx) => {
          await tx.unsafe(statement);
          held();
          await released;
          throw new Error("roll back");
        })
        .catch(() => undefined);
      await isHeld;
      try {
        await whileHeld();
      } finally {
        release();
        await holding;
      }
    }

    /** The 503 came from statement_timeout on the server, not from the client giving up. */
    async function expectCancelledByServer(server: ServerProcess): Promise<void> {
      const lines = await server.waitForStdout((all) =>
        all.some((l) => l.includes("statement timeout")),
      );
      const unavailable = lines.filter((l) => l.includes("store unavailable"));
      expect(unavailable.at(-1)).toContain("57014: canceling statement due to statement timeout");
    }
  },
);
