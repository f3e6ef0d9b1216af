// docs/scaling-out.md opens with a block that creates a database and starts two instances on
// it. Run here as a reader runs it (bash, npm start, createdb), with its first line naming a
// database and ports of this test's own and the page's server (127.0.0.1:5432, user postgres)
// replaced by the one TEST_DATABASE_URL names, as the page tells readers to: both instances
// come up on the new database, a plant created through one is read through the other with the
// token the first start printed, and the store holds it.

import { type ChildProcess, spawn } from "node:child_process";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { openStore } from "../../src/store/open.ts";
import { uniqueId } from "../helpers/app.ts";
import { firstBlock, replacedOnce } from "../helpers/doc-blocks.ts";
import { waitUntil } from "../helpers/load.ts";
import { TEST_DATABASE_URL } from "../helpers/postgres.ts";
import { markRan } from "../helpers/ran-marker.ts";
import { REPO_ROOT } from "../helpers/server-process.ts";
import { DATA } from "../helpers/stores.ts";
import { freePort } from "../helpers/system.ts";

describe.skipIf(TEST_DATABASE_URL === undefined)(
  "docs/scaling-out.md's first block, run as written",
  () => {
    const database = `plantstore_page_${process.pid}_${uniqueId()}`;
    const server = new URL(TEST_DATABASE_URL ?? "postgres://");
    /** The test's server with `path` as the database (a shell word such as `$db` is kept as is). */
    const on = (path: string) =>
      `${server.protocol}//${server.username}${server.password === "" ? "" : `:${server.password}`}@${server.host}/${path}${server.search}`;
    let shell: ChildProcess | undefined;

    afterAll(async () => {
      // The shell's process group: npm, its sh and each server (SIGTERM drains them).
      if (shell?.pid !== undefined) {
        try {
          process.kill(-shell.pid, "SIGTERM");
        } catch {
          // already gone
        }
      }
      await waitUntil(() => !groupAlive(shell?.pid), "both instances have stopped", 20_000).catch(
        () => shell?.pid !== undefined && process.kill(-shell.pid, "SIGKILL"),
      );
      const sql = postgres(TEST_DATABASE_URL ?? "", { max: 1, onnotice: () => undefined });
      await sql.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await sql.end({ timeout: 1 });
    });

    it("when the block runs, then two instances serve one new database: a plant created through one reads back through the other", async () => {
      const [port1, port2] = [await freePort(), await freePort()];
      const lines: [string, string][] = [
        ["db=plants port1=8081 port2=8082\n", `db=${database} port1=${port1} port2=${port2}\n`],
        [
          "createdb -h 127.0.0.1 -U postgres ",
          `createdb -h ${server.hostname.replace(/^\[|\]$/g, "")} -p ${server.port || "5432"} -U ${decodeURIComponent(server.username) || "postgres"} `,
        ],
        ['"postgres://postgres@127.0.0.1:5432/$db"', `"${on("$db")}"`],
      ];
      const script = lines.reduce(
        (text, [from, to]) => replacedOnce(text, from, to),
        firstBlock("docs/scaling-out.md", "sh"),
      );
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PGPASSWORD: decodeURIComponent(server.password),
      };
      for (const name of ["DATABASE_URL", "PORT", "PLANTSTORE_TOKENS", "PLANTSTORE_JWT_JWKS_URL"]) {
        delete env[name];
      }
      let stderr = "";
      shell = spawn("bash", ["-e", "-c", script], {
        cwd: REPO_ROOT,
        env,
        stdio: ["ignore", "ignore", "pipe"],
        detached: true,
      });
      shell.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });

      const ready = async (port: number) =>
        (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200;
      for (const port of [port1, port2]) {
        await waitFor(() => ready(port), `the instance on ${port} is ready\n${stderr}`);
      }
      const token = /^ {2}(ps_\w+)$/m.exec(stderr)?.[1];
      expect(token, stderr).toBeDefined();
      expect(stderr.match(/created the managed token "initial"/g)).toHaveLength(1);

      const id = uniqueId();
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const created = await fetch(`http://127.0.0.1:${port1}/plants`, {
        method: "POST",
        headers,
        body: `{"id":${id},"name":"on two instances"}`,
      });
      expect(created.status).toBe(200);
      const read = await fetch(`http://127.0.0.1:${port2}/plants/${id}`, { headers });
      expect(read.status).toBe(200);
      expect(await read.text()).toBe(`{"id":${id},"name":"on two instances"}`);

      const config = loadConfig({ DATABASE_URL: on(database) });
      const store = await openStore(config.database, { startupTimeoutMs: 0, data: DATA });
      try {
        expect(await store.resources.plants.get(id)).toStrictEqual({
          id,
          name: "on two instances",
        });
      } finally {
        await store.close();
      }
      // Its database comes from the page's createdb, not a test helper: CI requires it by name.
      markRan();
    }, 120_000);
  },
);

/** Whether any process of the group is left. */
function groupAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const giveUpAt = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > giveUpAt) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
