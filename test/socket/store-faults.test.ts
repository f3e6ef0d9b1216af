// Faults of the store that are not the caller's, on a real server: the disk filling up under
// the SQLite file (a 1 MiB tmpfs of the server's own, mounted in a user and mount namespace
// with unshare, so no privilege is needed), and the file being deleted or replaced while the
// server runs. Each must answer 503 with Retry-After and turn readiness 503, and no plant may
// be acknowledged that is not in the file the server started on.
import { readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, test } from "vitest";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { sleep } from "../helpers/load.ts";
import {
  killLeftoverServers,
  makeTempDb,
  type ServerProcess,
  startServer,
} from "../helpers/server-process.ts";
import { type Answer, expectErrorAnswer, expectPlantAnswer, post } from "../helpers/socket-http.ts";

afterEach(killLeftoverServers);

/** GET /readyz's status, polled until it is `wanted` (or 15 s pass); returns the last answer. */
async function readiness(server: ServerProcess, wanted: number): Promise<Answer> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const response = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(5000) });
    const answer = {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: await response.text(),
    };
    if (answer.status === wanted || Date.now() > deadline) return answer;
    await sleep(100);
  }
}

/** Every answer to a create is its 200 or a 503 with Retry-After: never a 500. */
function expectStoredOrUnavailable(answer: Answer, name: string): boolean {
  if (answer.status === 200) {
    expectPlantAnswer(answer, { name });
    return true;
  }
  expectErrorAnswer(answer, 503);
  expect(Number(answer.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  return false;
}

describe("a full disk under the SQLite file", () => {
  test("when the disk fills up, then creates get 503 with Retry-After and readiness 503; once space is back both recover, and every 200 is stored", async () => {
    const db = makeTempDb();
    try {
      // The server mounts a 1 MiB tmpfs over the folder, in namespaces of its own.
      const server = await startServer({
        databasePath: db.path,
        launcher: [
          "unshare",
          "--user",
          "--map-root-user",
          "--mount",
          "sh",
          "-c",
          'mount -t tmpfs -o size=1m tmpfs "$0" && exec "$@"',
          db.dir,
        ],
      });
      // The folder as the server sees it: its tmpfs, not the empty folder outside.
      const inside = (name: string) => join(`/proc/${server.child.pid}/root`, db.dir, name);
      const { bavail, bsize } = statfsSync(inside(""));
      writeFileSync(inside("filler"), Buffer.alloc(Math.max(0, bavail * bsize - 96 * 1024)));

      const stored: [bigint, string][] = [];
      let refused: Answer | undefined;
      for (let i = 0; i < 200 && refused === undefined; i++) {
        const id = uniqueId();
        const name = `big ${i} ${"x".repeat(8000)}`;
        const answer = await post(server.url, plantJson(id, name));
        if (expectStoredOrUnavailable(answer, name)) stored.push([id, name]);
        else refused = answer;
      }
      expect(refused, "the disk never filled up").toBeDefined();
      expect(stored.length).toBeGreaterThan(0);
      expectErrorAnswer(await readiness(server, 503), 503);

      rmSync(inside("filler"));
      expect((await readiness(server, 200)).status).toBe(200);
      const id = uniqueId();
      expectPlantAnswer(await post(server.url, plantJson(id, "after the space came back")), {
        name: "after the space came back",
      });
      stored.push([id, "after the space came back"]);

      // SQLite resolves /proc/PID/root to "/", so the files are read through it and copied out;
      // the server is idle, and everything it answered 200 for is in them.
      for (const suffix of ["", "-wal"]) {
        writeFileSync(join(db.dir, `copy.db${suffix}`), readFileSync(inside(`plants.db${suffix}`)));
      }
      const file = new Database(join(db.dir, "copy.db"), { readonly: true });
      try {
        const read = file.prepare<[bigint], { name: string }>(
          "SELECT name FROM plants WHERE id = ?",
        );
        for (const [storedId, name] of stored) expect(read.get(storedId)?.name).toBe(name);
      } finally {
        file.close();
      }
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      db.remove();
    }
  });
});

describe.each([
  ["deleted", (path: string) => rmSync(path)],
  [
    "replaced",
    (path: string) => {
      rmSync(path);
      const other = new Database(path);
      other.exec("CREATE TABLE plants (id INTEGER PRIMARY KEY, name TEXT NOT NULL, tag TEXT)");
      other.close();
    },
  ],
])("the SQLite file %s while the server runs", (how, change) => {
  test(`when the file is ${how}, then creates get 503 and readiness 503, and no create is acknowledged into the old file`, async () => {
    const db = makeTempDb();
    try {
      const server = await startServer({ databasePath: db.path });
      const before = uniqueId();
      expectPlantAnswer(await post(server.url, plantJson(before, "before")), { name: "before" });
      change(db.path);
      for (let i = 0; i < 5; i++) {
        const answer = await post(server.url, plantJson(uniqueId(), "after"));
        expect(expectStoredOrUnavailable(answer, "after")).toBe(false);
      }
      const ready = await readiness(server, 503);
      expectErrorAnswer(ready, 503);
      const fault = /(deleted|replaced) while open/;
      const lines = await server.waitForStdout((all) => fault.test(all.join("\n")));
      expect(lines.join("\n")).toMatch(fault);
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      db.remove();
    }
  });
});
