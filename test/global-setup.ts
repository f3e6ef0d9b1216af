// Runs once around the whole test run: says when the PostgreSQL suites are skipped, and
// fails the run when CI requires them (PLANTSTORE_REQUIRE_POSTGRES=1) but none ran.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { POSTGRES_SKIP_NOTICE, TEST_DATABASE_URL } from "./helpers/postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresRunMarkers: string;
  }
}

export default function setup(project: TestProject): () => void {
  // The process suites run the server as `npm start` does: compiled, from dist/server/. Built
  // again before every rerun in watch mode, so an edit to src/ reaches those suites too.
  const buildServer = (): void => {
    execFileSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "inherit" });
  };
  buildServer();
  project.onTestsRerun(buildServer);
  const markers = mkdtempSync(join(tmpdir(), "plantstore-pg-runs-"));
  project.provide("postgresRunMarkers", markers);
  const required = process.env["PLANTSTORE_REQUIRE_POSTGRES"] === "1";
  if (TEST_DATABASE_URL === undefined) {
    if (required) throw new Error(`PLANTSTORE_REQUIRE_POSTGRES=1 but ${POSTGRES_SKIP_NOTICE}`);
    process.stdout.write(`\n  ${POSTGRES_SKIP_NOTICE}\n\n`);
  }
  return () => {
    const runs = readdirSync(markers).length;
    rmSync(markers, { recursive: true, force: true });
    // vitest only prints an error thrown from teardown; the exit code is what CI sees.
    if (required && runs === 0) {
      process.stderr.write(
        "PLANTSTORE_REQUIRE_POSTGRES=1 but no PostgreSQL test database was used\n",
      );
      process.exitCode = 1;
    }
  };
}
