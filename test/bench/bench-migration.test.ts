// `npm run bench:migration` keeps working: on a small table, each engine prints the generated
// migration's statements and a row in which every create in flight during it was answered 2xx
// and the run had no error; on PostgreSQL the database it made is dropped. Says nothing about
// speed.
import { availableParallelism } from "node:os";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../helpers/postgres.ts";
import { markRan } from "../helpers/ran-marker.ts";
import { runToExit } from "../helpers/run-process.ts";

/** A run on `engine` with 20,000 plants; its row's cells. */
async function migrationRun(engine: "sqlite" | "postgres"): Promise<string[]> {
  const run = await runToExit(
    "npm",
    [
      "run",
      "-s",
      "bench:migration",
      "--",
      "--plants=20000",
      "--margin=1",
      "--rate=100",
      `--engines=${engine}`,
    ],
    { env: {}, timeoutMs: 150_000 },
  );
  expect(run.code, `${run.stdout}\n${run.stderr.slice(-2000)}`).toBe(0);
  expect(run.stdout).toMatch(/^- sqlite: CREATE INDEX "plants_bench_member"/m);
  expect(run.stdout).toMatch(/^- postgres: CREATE INDEX CONCURRENTLY IF NOT EXISTS/m);
  const rows = run.stdout.split("\n").filter((line) => line.startsWith(`| ${engine} |`));
  expect(rows, run.stdout).toHaveLength(1);
  // | engine | migration s | in flight: answered | p50 | p99 | slowest | p50, p99 outside | creates/s | errors |
  const cells = (rows[0] ?? "").split("|").map((cell) => cell.trim());
  const [inFlight, answered] = (cells[3] ?? "").split(": ");
  expect(answered, rows[0]).toBe(inFlight);
  expect(Number(cells[2]), rows[0]).toBeGreaterThan(0);
  expect(Number(cells[8]), rows[0]).toBeGreaterThan(0);
  expect(cells[9], rows[0]).toBe("0");
  return cells;
}

// It needs a core for the server and another for the load; CI requires each run (a marker).
const twoCores = availableParallelism() >= 2;

describe("npm run bench:migration", () => {
  it.skipIf(!twoCores)(
    "when run on SQLite with 20,000 plants, then it prints the migration and a row with every create answered and no error",
    async () => {
      await migrationRun("sqlite");
      markRan("sqlite");
    },
    180_000,
  );

  it.skipIf(!twoCores || TEST_DATABASE_URL === undefined)(
    "when run on PostgreSQL with 20,000 plants, then it prints a row with every create answered and no error, and drops the database it made",
    async () => {
      const admin = postgres(TEST_DATABASE_URL ?? "", { max: 1, onnotice: () => undefined });
      const benchDatabases = async () =>
        (
          await admin`SELECT datname FROM pg_database WHERE datname LIKE 'plantstore_paired_%_migration_%'`
        ).map((row) => String(row["datname"]));
      try {
        const before = await benchDatabases();
        await migrationRun("postgres");
        expect(await benchDatabases()).toEqual(before);
        markRan("postgres");
      } finally {
        await admin.end();
      }
    },
    180_000,
  );
});
