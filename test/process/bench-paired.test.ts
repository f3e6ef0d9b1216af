// `npm run bench:paired` keeps working: two short rounds (the second with the servers' places
// swapped) pair the service with each ceiling and print a row per pair with zero errors and
// a CPU time on both sides. Says nothing about speed.
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { runToExit } from "../helpers/run-process.ts";

describe("npm run bench:paired", () => {
  // It needs a core for the servers and another for the load.
  it.skipIf(availableParallelism() < 2)(
    "when run for two short rounds, then it prints a create and a GET row a round, each with zero errors and some CPU on both servers",
    async () => {
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
        ],
        { env: {}, timeoutMs: 120_000 },
      );
      expect(run.code, `${run.stdout}\n${run.stderr.slice(-2000)}`).toBe(0);
      // | round | operation | service: req/s, CPU µs, errors | paired with | its … | ratio |
      const rows = run.stdout
        .split("\n")
        .filter((line) => /^\| \d \| (create|get) \|/.test(line))
        .map((row) => row.split("|").map((cell) => cell.trim()));
      expect(
        rows.map((cells) => `${cells[1]} ${cells[2]}`),
        run.stdout,
      ).toEqual(["1 create", "1 get", "2 create", "2 get"]);
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
      expect(run.stdout).toMatch(/^create: create ceiling CPU ÷ the service's/m);
      expect(run.stdout).toMatch(/^get: read ceiling CPU ÷ the service's/m);
    },
    150_000,
  );
});
