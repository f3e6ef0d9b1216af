// Runs once around the whole test run: builds the server the process suites start, says when
// the PostgreSQL suites are skipped, and fails at once when CI requires them
// (PLANTSTORE_REQUIRE_POSTGRES=1) but no server is named. That each of them ran is checked by
// name after the run (the markers of test/helpers/ran-marker.ts, in .ci/run).
import { execFileSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { POSTGRES_SKIP_NOTICE, TEST_DATABASE_URL } from "./helpers/postgres.ts";

export default function setup(project: TestProject): void {
  // The process suites run the server as `npm start` does: compiled, from dist/server/. Built
  // again before every rerun in watch mode, so an edit to src/ reaches those suites too. The
  // command line builds itself when stale; built here, its first runs in parallel suites do not.
  const buildServer = (): void => {
    execFileSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "inherit" });
    execFileSync(process.execPath, ["scripts/build-cli.mjs"], { stdio: "inherit" });
  };
  buildServer();
  project.onTestsRerun(buildServer);
  if (TEST_DATABASE_URL === undefined) {
    if (process.env["PLANTSTORE_REQUIRE_POSTGRES"] === "1") {
      throw new Error(`PLANTSTORE_REQUIRE_POSTGRES=1 but ${POSTGRES_SKIP_NOTICE}`);
    }
    process.stdout.write(`\n  ${POSTGRES_SKIP_NOTICE}\n\n`);
  }
}
