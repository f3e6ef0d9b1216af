// Start-up while PostgreSQL cannot be reached: the server retries, saying so on stderr, until
// DATABASE_STARTUP_TIMEOUT_MS; then it gives up with one clear line, or serves once it can.
// A database that does not exist is not waited for.
import { afterEach, describe, expect, test } from "vitest";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { waitUntil } from "../helpers/load.ts";
import { TEST_DATABASE_URL } from "../helpers/postgres.ts";
import { linesOf, runServerToExit } from "../helpers/run-process.ts";
import { killLeftoverServers, startServer } from "../helpers/server-process.ts";
import { expectPlantAnswer, post } from "../helpers/socket-http.ts";
import { postgresEngine, type TestStore } from "../helpers/stores.ts";
import { hostAndPort, startTcpProxy, type TcpProxy, throughProxy } from "../helpers/tcp-proxy.ts";

const RETRYING =
  /^plantstore: database at postgres:\/\/\S+ unreachable \(.+\); retrying in \d+\.\d s, giving up in \d+\.\d s$/;

let proxy: TcpProxy | undefined;
let db: TestStore | undefined;

afterEach(async () => {
  await killLeftoverServers();
  await proxy?.close();
  await db?.destroy();
  proxy = undefined;
  db = undefined;
});

// Needs no PostgreSQL server: nothing listens where DATABASE_URL points.
describe("start-up with the database unreachable until the deadline", () => {
  test("when nothing answers at DATABASE_URL for DATABASE_STARTUP_TIMEOUT_MS, then the process says it is retrying, exits 1 with one line saying it cannot reach the database, and never shows the password", async () => {
    // Stopped before anything connects: its port refuses, whatever it would relay to.
    proxy = await startTcpProxy({ host: "127.0.0.1", port: 5432 });
    await proxy.stop();
    const url = throughProxy("postgres://plantstore:s3cret-pw@127.0.0.1/plants", proxy);

    const { code, stdout, stderr } = await runServerToExit({
      DATABASE_URL: url,
      DATABASE_STARTUP_TIMEOUT_MS: "1500",
    });

    expect(code, stderr).toBe(1);
    const lines = linesOf(stderr);
    const last = lines.pop();
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(RETRYING);
    expect(last).toMatch(
      /^plantstore: cannot reach the database at postgres:\/\/\S+ within 1\.5 s \(DATABASE_STARTUP_TIMEOUT_MS\): .+$/,
    );
    expect(stderr).not.toContain("s3cret-pw");
    expect(stdout).not.toContain("Server listening");
  });
});

describe.skipIf(TEST_DATABASE_URL === undefined)("start-up on a missing database", () => {
  test("when DATABASE_URL names a database the server does not have, then start-up exits 1 without retrying, in one line saying how to create it", async () => {
    const url = new URL(TEST_DATABASE_URL ?? "");
    const name = `plantstore_missing_${uniqueId()}`;
    url.pathname = `/${name}`;

    // A deadline the process would wait out if it retried (and the helper's timeout end it).
    const { code, stdout, stderr } = await runServerToExit({
      DATABASE_URL: url.toString(),
      DATABASE_STARTUP_TIMEOUT_MS: "600000",
    });

    expect(code, stderr).toBe(1);
    const user = decodeURIComponent(url.username) || "postgres";
    expect(linesOf(stderr)).toEqual([
      `plantstore: cannot open the database at ${url.toString()}: database "${name}" does not exist; create it first: createdb -h ${url.hostname} -p ${url.port || "5432"} -U ${user} ${name}`,
    ]);
    expect(stdout).not.toContain("Server listening");
  });
});

describe.skipIf(TEST_DATABASE_URL === undefined)("start-up while the database comes up", () => {
  test("when the database becomes reachable after start-up has begun retrying, then the server comes up on it and serves a create", async () => {
    db = await postgresEngine.create();
    proxy = await startTcpProxy(hostAndPort(db.url));
    await proxy.stop();
    let stderr = "";

    const starting = startServer({
      databaseUrl: throughProxy(db.url, proxy),
      env: { DATABASE_STARTUP_TIMEOUT_MS: "20000" },
      startTimeoutMs: 25_000,
      onStderr: (chunk) => {
        stderr += chunk;
      },
    });
    starting.catch(() => undefined); // awaited below; this only keeps an early failure handled
    // The database comes up only once the server has failed to reach it at least once.
    await waitUntil(() => / unreachable \(/.test(stderr), "the server reports retrying", 20_000);
    await proxy.start();
    const server = await starting;

    expect(linesOf(server.stderr()).every((line) => RETRYING.test(line))).toBe(true);
    const id = uniqueId();
    expectPlantAnswer(await post(server.url, plantJson(id, "late database", "retry")), {
      name: "late database",
      tag: "retry",
    });
    expect(await db.store.resources.plants.get(id)).toStrictEqual({
      id,
      name: "late database",
      tag: "retry",
    });
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });
});
