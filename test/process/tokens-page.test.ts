// docs/operating.md's managed-token session (the README shows the same commands), run as
// written against a new SQLite database named by DATABASE_URL: every line each command prints
// has the shape of a line the page shows under it (ids, times and the token itself differ),
// and the store ends as the page says: the token created, then revoked.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import { consoleSteps, firstBlock } from "../helpers/doc-blocks.ts";
import { linesOf, runToExit } from "../helpers/run-process.ts";
import { makeTempDb, REPO_ROOT } from "../helpers/server-process.ts";
import { DATA } from "../helpers/stores.ts";

const PAGE = "docs/operating.md";
const SECTION = "## Getting a token";

/** A line as the page and a run can both show it: values that differ each time named. */
const shape = (line: string): string =>
  line
    .replace(/ps_\S+…\(52 characters\)/, "<token>")
    .replace(/^ps_[0-9A-Za-z]{49}$/, "<token>")
    .replace(/tok_[0-9A-Za-z]+/g, "<id>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, "<time>")
    .replace(/ +/g, " ");

describe("the managed-token session of docs/operating.md", () => {
  const db = makeTempDb();
  afterAll(() => db.remove());

  it("when its commands run in order, then each prints lines the page shows, and the store holds the token revoked", async () => {
    const steps = consoleSteps(firstBlock(PAGE, "console", SECTION));
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    expect(steps.map((step) => step.command)).toEqual([
      expect.stringContaining("tokens create --name ci"),
      expect.stringContaining("tokens list"),
      expect.stringContaining("tokens revoke ci"),
    ]);
    for (const { command, output } of steps) {
      expect(readme, "the README shows the same commands").toContain(`$ ${command}`);
      const run = await runToExit("bash", ["-c", command], {
        env: { DATABASE_URL: `sqlite:${db.path}`, PLANTSTORE_TOKENS: undefined },
      });
      expect(run.code, run.stderr).toBe(0);
      const printed = [...linesOf(run.stdout), ...linesOf(run.stderr)];
      expect(printed.length, command).toBeGreaterThan(0);
      const shown = output.map(shape);
      for (const line of printed) expect(shown, command).toContain(shape(line));
    }
    const store = openSqliteStore(db.path, { data: DATA });
    try {
      const [ci] = (await store.tokens.list()).filter((token) => token.name === "ci");
      expect(ci?.revokedAt).toBeInstanceOf(Date);
      expect(ci?.scopes).toEqual(["plants:write"]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
