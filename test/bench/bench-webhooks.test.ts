// `npm run bench:webhooks` keeps working: two short rounds of each pair on SQLite print a row a
// round with zero errors, the receiver counting what it got and the backlog
// pair's deliverer failing against the receiver that is down. Says nothing about speed.
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { markRan } from "../helpers/ran-marker.ts";
import { runToExit } from "../helpers/run-process.ts";

describe("npm run bench:webhooks", () => {
  // It needs a core for the server and another for the load; CI requires it (a marker).
  it.skipIf(availableParallelism() < 2)(
    "when run for two short rounds of each pair, then it prints a row a round with zero errors, deliveries received and attempts failed",
    async () => {
      const run = await runToExit(
        "npm",
        [
          "run",
          "-s",
          "bench:webhooks",
          "--",
          "--rounds=2",
          "--duration=1",
          "--warmup=0",
          "--connections=4",
          "--drain=1",
          "--pending=2000",
          "--engines=sqlite",
        ],
        // Generous: on a two-core machine busy with other work its rounds take minutes, not seconds.
        { env: {}, timeoutMs: 300_000 },
      );
      expect(run.code, `${run.stdout}\n${run.stderr.slice(-2000)}`).toBe(0);
      const rows = run.stdout
        .split("\n")
        .filter((line) => /^\| sqlite \| (delivering|outbox|backlog) \|/.test(line))
        .map((line) => line.split("|").map((cell) => cell.trim()));
      expect(
        rows.map((cells) => `${cells[2]} ${cells[3]}`),
        run.stdout,
      ).toEqual(["delivering 1", "delivering 2", "outbox 1", "outbox 2", "backlog 1", "backlog 2"]);
      for (const cells of rows) {
        for (const side of [cells[4], cells[5]]) {
          const [rate, cpu, errors] = (side ?? "").split(", ");
          expect(Number(rate), cells.join(" | ")).toBeGreaterThan(0);
          expect(Number(cpu), cells.join(" | ")).toBeGreaterThan(0);
          expect(errors, cells.join(" | ")).toBe("0");
        }
      }
      for (const cells of rows.filter((row) => row[2] !== "backlog")) {
        expect(cells[9], cells.join(" | ")).toMatch(/^[1-9]\d* plants; received \d+ at the end/);
      }
      for (const cells of rows.filter((row) => row[2] === "backlog")) {
        expect(cells[9], cells.join(" | ")).toMatch(/^2000 preloaded; [1-9]\d* failed attempts$/);
      }
      expect(run.stdout).toMatch(/^sqlite, delivering: req\/s .+ pending 1 s after the load/m);
      expect(run.stdout).toMatch(/^sqlite, backlog: req\/s .+ peak RSS/m);
      markRan();
    },
    330_000,
  );
});
