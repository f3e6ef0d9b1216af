// The log output (src/ops/log-destination.ts): whole lines in order, in writes a pipe keeps
// whole, and never a stalled or crashed service when standard output goes away.
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { LineChunks } from "../../src/ops/line-chunks.ts";
import { bufferedStandardOutput, chunkBytesFor, PIPE_BUF } from "../../src/ops/log-destination.ts";

const line = (n: number) => `${JSON.stringify({ n, text: "é".repeat(n % 300) })}\n`;

/** Runs an ES module script in a child whose standard output is a pipe; gathers its stderr. */
function runScript(script: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let said = "";
  child.stderr.on("data", (data: Buffer) => {
    said += data.toString();
  });
  return { child, stderr: () => said };
}

describe("the log output", () => {
  it("when lines are gathered into chunks, then each holds whole lines of at most the chunk's size (a longer line alone)", () => {
    const lines = [...Array.from({ length: 500 }, (_, n) => line(n)), "x".repeat(9000), "y\n"];
    const chunks = new LineChunks(4096);
    const written: string[] = [];
    for (const text of lines) chunks.add(text);
    for (let chunk = chunks.take(); chunk !== undefined; chunk = chunks.take()) {
      const text = chunk.toString();
      if (chunk.length > 4096) expect(text).toBe("x".repeat(9000));
      expect(text.endsWith("\n") || text === "x".repeat(9000)).toBe(true);
      written.push(text);
      chunks.release(chunk);
    }
    expect(written.join("")).toBe(lines.join(""));
    expect(chunks.bytes).toBe(0);
  });

  it("when more would wait than the bound, counted in bytes, then the line is dropped", () => {
    const chunks = new LineChunks(4096, 10_000);
    expect(chunks.add("x".repeat(3000))).toBe(true);
    // 4,000 characters, 8,000 bytes of UTF-8: 11,000 would wait.
    expect(chunks.add("é".repeat(4000))).toBe(false);
    expect(chunks.add("y".repeat(7000))).toBe(true);
    expect(chunks.bytes).toBe(10_000);
  });

  it("when a chunk is taken and not yet released, then lines gathered after it never change its bytes", () => {
    const chunks = new LineChunks(4096);
    for (let n = 0; n < 100; n++) chunks.add(line(n));
    const inFlight = chunks.take();
    const before = inFlight?.toString();
    const released = chunks.take();
    if (released !== undefined) chunks.release(released);
    for (let n = 100; n < 400; n++) chunks.add(line(n));
    expect(inFlight?.toString()).toBe(before);
    // A chunk cut early (a flush of a few lines) is a copy: gathering goes on in the buffer.
    const early = new LineChunks(64 * 1024);
    for (let n = 0; n < 3; n++) early.add(line(n));
    const flushed = early.take();
    const flushedText = flushed?.toString();
    if (flushed !== undefined) early.release(flushed);
    for (let n = 3; n < 400; n++) early.add(line(n));
    expect(flushed?.toString()).toBe(flushedText);
    expect(flushedText).toBe([0, 1, 2].map(line).join(""));
  });

  it("when standard output is a pipe, then a write holds at most PIPE_BUF (other processes may share it); into a file, chunks of 64 KiB", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plantstore-log-"));
    const fd = openSync(join(dir, "out.log"), "w");
    try {
      expect(chunkBytesFor(fd)).toBe(64 * 1024);
      // A child whose standard output is a pipe says what it would use for it.
      const script = `
        import { chunkBytesFor } from ${JSON.stringify(join(process.cwd(), "src/ops/log-destination.ts"))};
        process.stderr.write(JSON.stringify(chunkBytesFor(1)));
      `;
      const { child, stderr } = runScript(script);
      await new Promise((resolve) => child.once("close", resolve));
      expect(JSON.parse(stderr())).toBe(PIPE_BUF);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
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
    const { child, stderr } = runScript(script);
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
    expect({ code, stderr: stderr() }).toEqual({ code: 0, stderr: "exiting\n" });
  });
});
