// test/required-runs.txt against the test files: each suite it names exists, each marker a
// markRan call leaves is named, and the suites named for PostgreSQL are the files that run on
// it. That each one ran is for .ci/run to check, from the markers the run left (which also
// catches a PostgreSQL suite these patterns miss).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers/repo-root.ts";

const source = (file: string): string => readFileSync(join(REPO_ROOT, file), "utf8");
const listed = source("test/required-runs.txt")
  .split("\n")
  .filter((line) => line !== "" && !line.startsWith("#"));
const testFiles = readdirSync(join(REPO_ROOT, "test"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts"))
  .map((file) => `test/${file}`);
/** The marker each markRan call in the test files leaves. */
const marked = testFiles.flatMap((file) =>
  [...source(file).matchAll(/\bmarkRan\((?:"([^"]*)")?\)/g)].map(([, label]) =>
    label === undefined ? file : `${file}#${label}`,
  ),
);
/** How a suite comes to run on PostgreSQL (not in quotes: a test may check a text for them). */
const ON_POSTGRES =
  /(?<!["'`])\b((describe|it|test)\.each\(storeEngines\)|emptyDatabaseKinds|createTestDatabase\(|postgresEngine|TEST_DATABASE_URL)/;
const THIS_FILE = "test/required-runs.test.ts";

describe("test/required-runs.txt", () => {
  it("when read, then each line names a test file that exists, once, in order", () => {
    const missing = listed.filter((entry) => !testFiles.includes(entry.split("#")[0] ?? ""));
    expect(missing, "listed, but no such test file: remove them from the list").toEqual([]);
    expect(listed).toEqual([...new Set(listed)].sort());
  });

  it("when the test files call markRan, then the list names every marker they leave, and no label they do not", () => {
    expect(marked.filter((marker) => !listed.includes(marker))).toEqual([]);
    const labels = listed.filter((entry) => entry.includes("#"));
    expect(labels.filter((entry) => !marked.includes(entry))).toEqual([]);
  });

  it("when a test file runs suites on PostgreSQL, then the list names it, and each file it names for PostgreSQL does", () => {
    const onPostgres = testFiles.filter(
      (file) => file !== THIS_FILE && ON_POSTGRES.test(source(file)),
    );
    const named = new Set(listed.map((entry) => entry.split("#")[0]));
    expect(onPostgres.length).toBeGreaterThan(0);
    expect(
      onPostgres.filter((file) => !named.has(file)),
      "add them to the list",
    ).toEqual([]);
    const forPostgres = listed.filter((entry) => !marked.includes(entry) && !entry.includes("#"));
    expect(forPostgres.filter((file) => !onPostgres.includes(file))).toEqual([]);
  });
});
