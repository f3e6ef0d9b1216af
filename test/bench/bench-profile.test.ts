// `npm run bench:profile` keeps working: a one-second profile of creates prints, for each thread
// (on SQLite the main thread and the write thread; on PostgreSQL the main thread alone), a table
// of self time per package and one per function, with zero errors, and leaves no database on
// PostgreSQL. Says nothing about where the time goes.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../helpers/postgres.ts";
import { markRan } from "../helpers/ran-marker.ts";
import { runToExit } from "../helpers/run-process.ts";

/** Runs a one-second profile with `options`; returns stdout and each thread's heading. */
async function profileRun(...options: string[]): Promise<{ stdout: string; threads: string[] }> {
  const run = await runToExit(
    "npm",
    [
      "run",
      "-s",
      "bench:profile",
      "--",
      "--duration=1",
      "--warmup=0",
      "--connections=4",
      "--top=5",
      ...options,
    ],
    { env: {}, timeoutMs: 120_000 },
  );
  expect(run.code, `${run.stdout}\n${run.stderr.slice(-2000)}`).toBe(0);
  expect(run.stdout).toMatch(/^\d+ creates a second, 0 errors$/m);
  const threads = [...run.stdout.matchAll(/^### (main thread|write thread)/gm)].map(
    ([, thread]) => thread ?? "",
  );
  // | package | self ms | share of busy |, then | function | package | self ms | share |
  const packages = run.stdout.match(/^\| [^|`]+ \| \d+ \| [\d.]+ % \|$/gm) ?? [];
  const functions = run.stdout.match(/^\| `[^`]+` \| [^|]+ \| \d+ \| [\d.]+ % \|$/gm) ?? [];
  expect(packages.length, run.stdout).toBeGreaterThanOrEqual(threads.length);
  expect(functions.length, run.stdout).toBeGreaterThanOrEqual(threads.length);
  expect(run.stdout).toMatch(/^CPU from \/proc in the profiled seconds: main thread \d+ ms/m);
  return { stdout: run.stdout, threads };
}

describe("npm run bench:profile", () => {
  it("when run for a second on SQLite, then it prints the main thread's and the write thread's self time per package and per function, with zero errors", async () => {
    const { stdout, threads } = await profileRun();
    expect(threads, stdout).toEqual(["main thread", "write thread"]);
  }, 150_000);

  it.skipIf(TEST_DATABASE_URL === undefined)(
    "when run on PostgreSQL, then it prints the main thread's self time and drops the database it made",
    async () => {
      const admin = postgres(TEST_DATABASE_URL ?? "", { max: 1, onnotice: () => undefined });
      // The profiled server's database only: another bench beside this one makes its own.
      const benchDatabases = async () =>
        (
          await admin`SELECT datname FROM pg_database WHERE datname LIKE 'plantstore_paired_%_profiled'`
        ).map((row) => String(row["datname"]));
      try {
        const before = await benchDatabases();
        const { stdout, threads } = await profileRun("--engine=postgres");
        expect(threads, stdout).toEqual(["main thread"]);
        expect(await benchDatabases()).toEqual(before);
        markRan("postgres");
      } finally {
        await admin.end();
      }
    },
    150_000,
  );
});
