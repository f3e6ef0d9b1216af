// `npm run bench` keeps working: a one-second run against the ceiling and the service (and
// PostgreSQL when it is available) ends with a table in which every request succeeded. It
// says nothing about speed: tests never assert timings.
import { describe, expect, it } from "vitest";
import { runToExit } from "../helpers/run-process.ts";
import { storeEngines } from "../helpers/stores.ts";

describe("npm run bench", () => {
  it("when run briefly with two workers and stored plants, then it prints a row per target and operation, each with zero errors", async () => {
    const engines = storeEngines.map((engine) => engine.name).join(",");
    const run = await runToExit(
      "npm",
      [
        "run",
        "-s",
        "bench",
        "--",
        "--duration=1",
        "--warmup=0",
        "--connections=4",
        "--workers=1,2",
        "--preload=1000",
        `--engines=${engines}`,
      ],
      { env: {}, timeoutMs: 120_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout
      .split("\n")
      .filter((line) => /^\| (ceiling|sqlite|postgres)/.test(line));
    // The ceiling, then per engine and worker count: create, GET by id, list page.
    const expected = 1 + 2 * storeEngines.length * 3;
    expect(rows, run.stdout).toHaveLength(expected);
    for (const row of rows) {
      const cells = row.split("|").map((cell) => cell.trim());
      // | target | req/s | × ceiling | p50 | p99 | errors | RSS | CPU |
      expect(Number(cells[2]), row).toBeGreaterThan(0);
      // What the errors were is on standard error (bench.ts).
      expect(cells[6], `${row}\n${run.stderr.slice(-2000)}`).toBe("0");
    }
  }, 150_000);
});
