// `npm run bench:paired` keeps working: two short rounds (the second with the servers' places
// swapped) pair the service with the ceilings and print a row per pair with zero errors and a
// CPU time on both sides; on PostgreSQL, creates only, and no database left behind; paired
// with itself on a store of another size (--other-preload), rows for both, the other side's
// GETs finding its larger store. Says nothing about speed.
import { availableParallelism } from "node:os";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../helpers/postgres.ts";
import { markRan } from "../helpers/ran-marker.ts";
import { runToExit } from "../helpers/run-process.ts";

/** Runs two short rounds with `options`; returns stdout, and the rows as "round operation". */
async function pairedRun(...options: string[]): Promise<{ stdout: string; rows: string[] }> {
  const run = await runToExit(
    "npm",
    [
      "run",
      "-s",
      "bench:paired",
      "--",
      "--rounds=2",
      "--duration=1",
      "--warmup=0",
      "--connections=4",
      "--preload=1000",
      ...options,
    ],
    { env: {}, timeoutMs: 120_000 },
  );
  expect(run.code, `${run.stdout}\n${run.stderr.slice(-2000)}`).toBe(0);
  // | round | operation | service: req/s, CPU µs, errors | paired with | its … | ratio |
  const rows = run.stdout
    .split("\n")
    .filter((line) => /^\| \d \| (create|get|list) \|/.test(line))
    .map((row) => row.split("|").map((cell) => cell.trim()));
  for (const cells of rows) {
    const row = cells.join(" | ");
    for (const side of [cells[3], cells[5]]) {
      const [rate, cpu, errors] = (side ?? "").split(", ");
      expect(Number(rate), row).toBeGreaterThan(0);
      expect(Number(cpu), row).toBeGreaterThan(0);
      expect(errors, row).toBe("0");
    }
    const ratio = Number(cells[6]);
    expect(Number.isFinite(ratio) && ratio > 0, row).toBe(true);
  }
  return { stdout: run.stdout, rows: rows.map((cells) => `${cells[1]} ${cells[2]}`) };
}

// It needs a core for the servers and another for the load; CI requires each run (a marker).
const twoCores = availableParallelism() >= 2;

describe("npm run bench:paired", () => {
  it.skipIf(!twoCores)(
    "when run for two short rounds, then it prints a create and a GET row a round, each with zero errors and some CPU on both servers",
    async () => {
      const { stdout, rows } = await pairedRun();
      expect(rows, stdout).toEqual(["1 create", "1 get", "2 create", "2 get"]);
      expect(stdout).toMatch(/^create: create ceiling CPU ÷ the service's/m);
      expect(stdout).toMatch(/^get: read ceiling CPU ÷ the service's/m);
      markRan("sqlite");
    },
    150_000,
  );

  it.skipIf(!twoCores || TEST_DATABASE_URL === undefined)(
    "when run on PostgreSQL, then it prints a create row a round against the create ceiling, no GET row, and drops the databases it made",
    async () => {
      const admin = postgres(TEST_DATABASE_URL ?? "", { max: 1, onnotice: () => undefined });
      // The paired servers' databases (…_a, …_b), compared with what was there before: a
      // database another run left, or another bench beside this one has open, is not ours.
      const pairedDatabases = async () =>
        (await admin`SELECT datname FROM pg_database WHERE datname LIKE 'plantstore_paired_%'`)
          .map((row) => String(row["datname"]))
          .filter((name) => /_[ab]$/.test(name));
      try {
        const before = await pairedDatabases();
        const { stdout, rows } = await pairedRun("--engine=postgres");
        expect(rows, stdout).toEqual(["1 create", "2 create"]);
        expect(stdout).toMatch(/^create: create ceiling CPU ÷ the service's/m);
        expect(stdout).not.toMatch(/^get:/m);
        expect(await pairedDatabases()).toEqual(before);
        markRan("postgres");
      } finally {
        await admin.end();
      }
    },
    150_000,
  );

  it.skipIf(!twoCores)(
    "when the service is paired with itself on a store of another size (--other-preload), then it prints a create, a GET and a list row a round, the other side named with its plants",
    async () => {
      const { stdout, rows } = await pairedRun("--service=.", "--other-preload=3000");
      expect(rows, stdout).toEqual(["1 create", "1 get", "1 list", "2 create", "2 get", "2 list"]);
      expect(stdout).toMatch(/the service's store: 1000 plants first, the other's: 3000;/);
      expect(stdout).toMatch(/^create: service at .+ \(3000 plants stored first\) CPU ÷/m);
      expect(stdout).toMatch(/^get: service at .+ \(3000 plants stored first\) CPU ÷/m);
      expect(stdout).toMatch(/^list: service at .+ \(3000 plants stored first\) CPU ÷/m);
      markRan("other-preload");
    },
    150_000,
  );

  it("when --other-preload is given without --service, then it refuses to start", async () => {
    const run = await runToExit("npm", ["run", "-s", "bench:paired", "--", "--other-preload=10"], {
      env: {},
      timeoutMs: 60_000,
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/--other-preload needs --service/);
  });
});
