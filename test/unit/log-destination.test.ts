// The log output (src/ops/log-destination.ts): whole lines in order, in writes a pipe keeps
// whole, and never a stalled or crashed service when standard output goes away.
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { bufferedStandardOutput, firstChunk } from "../../src/ops/log-destination.ts";

const line = (n: number) => `${JSON.stringify({ n, text: "é".repeat(n % 300) })}\n`;

describe("the log output", () => {
  it("when lines are split into writes, then each holds whole lines of at most 4 KiB (a longer line alone)", () => {
    const lines = [...Array.from({ length: 500 }, (_, n) => line(n)), "x".repeat(9000), "y\n"];
    let rest = lines;
    const written: string[] = [];
    while (rest.length > 0) {
      const { chunk, lines: taken } = firstChunk(rest, 4096);
      expect(taken).toBeGreaterThan(0);
      if (taken > 1) expect(chunk.length).toBeLessThanOrEqual(4096);
      written.push(chunk.toString());
      rest = rest.slice(taken);
    }
    expect(written.join("")).toBe(lines.join(""));
  });

  it("when many lines are written, then the file holds each of them whole and in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plantstore-log-"));
    const path = join(dir, "out.log");
    const fd = openSync(path, "w");
    try {
      const output = bufferedStandardOutput(fd);
      const lines = Array.from({ length: 5000 }, (_, n) => line(n));
      for (const text of lines) output.write(text);
      const expected = lines.join("");
      for (let waited = 0; readFileSync(path, "utf8") !== expected && waited < 10_000; ) {
        await sleep(50);
        waited += 50;
      }
      expect(readFileSync(path, "utf8")).toBe(expected);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("when standard output's reader goes away, then the process neither crashes nor hangs, and exits as asked", async () => {
    const script = `
      import { bufferedStandardOutput } from ${JSON.stringify(join(process.cwd(), "src/ops/log-destination.ts"))};
      const output = bufferedStandardOutput();
      let n = 0;
      const timer = setInterval(() => { for (let i = 0; i < 200; i++) output.write(JSON.stringify({ n: n++ }) + "\\n"); }, 5);
      setTimeout(() => { clearInterval(timer); process.stderr.write("exiting\\n"); process.exit(0); }, 1500);
    `;
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    // Read a little, then close the reading end: every later write gets EPIPE.
    await new Promise((resolve) => child.stdout.once("data", resolve));
    child.stdout.destroy();
    const code = await Promise.race([
      new Promise((resolve) => child.once("exit", resolve)),
      sleep(15_000).then(() => {
        child.kill("SIGKILL");
        return "hung";
      }),
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "exiting\n" });
  });
});
