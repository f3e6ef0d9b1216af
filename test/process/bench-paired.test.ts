// `npm run bench:paired` keeps working: one short round pairs the service with each ceiling and
// prints a row per pair with zero errors on both sides. Says nothing about speed.
import { describe, expect, it } from "vitest";
import { runToExit } from "../helpers/run-process.ts";

describe("npm run bench:paired", () => {
  it("when run for one short round, then it prints a create and a GET row, each with zero errors on both servers", async () => {
    const run = await runToExit(
      "npm",
      [
        "run",
        "-s",
        "bench:paired",
        "--",
        "--rounds=1",
        "--duration=1",
        "--warmup=0",
        "--connections=4",
        "--preload=1000",
      ],
      { env: {}, timeoutMs: 120_000 },
    );
    expect(run.code, `${run.stdout}\n${run.stderr.slice(-2000)}`).toBe(0);
    const rows = run.stdout.split("\n").filter((line) => /^\| 1 \| (create|get) \|/.test(line));
    expect(
      rows.map((row) => row.split("|")[2]?.trim()),
      run.stdout,
    ).toEqual(["create", "get"]);
    for (const row of rows) {
      // | round | operation | service: req/s, CPU µs, errors | paired with | its … | ratio |
      const cells = row.split("|").map((cell) => cell.trim());
      for (const side of [cells[3], cells[5]]) {
        const [rate, , errors] = (side ?? "").split(", ");
        expect(Number(rate), row).toBeGreaterThan(0);
        expect(errors, row).toBe("0");
      }
      expect(Number(cells[6]), row).toBeGreaterThan(0);
    }
    expect(run.stdout).toMatch(/^create: create ceiling CPU ÷ the service's/m);
    expect(run.stdout).toMatch(/^get: read ceiling CPU ÷ the service's/m);
  }, 150_000);
});
