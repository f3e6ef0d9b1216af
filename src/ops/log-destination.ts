// Where the service's log lines go: standard output, gathered and written asynchronously. A
// synchronous write per request (pino's default for stdout) took about 7% of a create's CPU
// (BENCHMARKS.md). Lines go out once 4 KiB have gathered or 250 ms have passed, in writes of
// whole lines of at most 4 KiB, which a pipe keeps whole (PIPE_BUF): the lines of cluster
// workers sharing one pipe never cut into each other. What is still gathered is written when
// the process exits, short of SIGKILL, an abort, or a signal left to its default action.
// Neither a stalled nor a closed standard output can stop or stall the service: at most
// 16 MiB wait (later lines are dropped), and once it is gone (EPIPE) lines are dropped.
import { write, writeSync } from "node:fs";

/** PIPE_BUF on Linux: a write to a pipe of at most this many bytes is never interleaved. */
const CHUNK_BYTES = 4096;
const FLUSH_INTERVAL_MS = 250;
const MAX_GATHERED_BYTES = 16 * 1024 * 1024;
const RETRY_MS = 100;

export interface LogOutput {
  write(line: string): boolean;
  /** Writes what is gathered now, synchronously, giving up at the first failed write. */
  flushSync(): void;
}

/**
 * Joins the lines from `from` on into a chunk of whole lines of at most `maxBytes` (a longer
 * line goes alone); returns the chunk and how many lines it took.
 */
export function firstChunk(
  lines: readonly string[],
  maxBytes: number,
  from = 0,
): { chunk: Buffer; lines: number } {
  let size = 0;
  let end = from;
  while (end < lines.length) {
    const length = Buffer.byteLength(lines[end] ?? "");
    if (end > from && size + length > maxBytes) break;
    size += length;
    end++;
  }
  return { chunk: Buffer.from(lines.slice(from, end).join("")), lines: end - from };
}

export function bufferedStandardOutput(fd = 1): LogOutput {
  let lines: string[] = [];
  /** Lines before this one are written already: taking a chunk does not copy the rest. */
  let head = 0;
  let gathered = 0;
  /** The rest of a chunk a write took only part of, or could not take yet: written first. */
  let retry: Buffer | undefined;
  let writing = false;
  let gone = false;
  let timer: NodeJS.Timeout | undefined;

  const take = (): Buffer | undefined => {
    if (retry !== undefined) {
      const chunk = retry;
      retry = undefined;
      return chunk;
    }
    if (head === lines.length) return undefined;
    const { chunk, lines: count } = firstChunk(lines, CHUNK_BYTES, head);
    head += count;
    // Dropped once most of the array is written, so each line is copied O(1) times.
    if (head * 2 >= lines.length) {
      lines = lines.slice(head);
      head = 0;
    }
    gathered -= chunk.length;
    return chunk;
  };

  const later = (ms: number) => {
    timer ??= setTimeout(flush, ms).unref();
  };

  function flush(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (writing || gone) return;
    const chunk = take();
    if (chunk === undefined) return;
    writing = true;
    write(fd, chunk, 0, chunk.length, null, (error, written) => {
      writing = false;
      if (error !== null) {
        if (error.code === "EAGAIN") {
          retry = chunk;
          later(RETRY_MS);
        } else {
          // Standard output is gone (its reader exited) or broken: nowhere to write to.
          gone = true;
          lines = [];
          head = 0;
          gathered = 0;
        }
        return;
      }
      if (written < chunk.length) retry = chunk.subarray(written);
      if (retry !== undefined || gathered >= CHUNK_BYTES) flush();
      else if (head < lines.length) later(FLUSH_INTERVAL_MS);
    });
  }

  const output: LogOutput = {
    write(line) {
      if (gone) return true;
      const length = Buffer.byteLength(line);
      if (gathered + length > MAX_GATHERED_BYTES) return true;
      lines.push(line);
      gathered += length;
      if (gathered >= CHUNK_BYTES) flush();
      else later(FLUSH_INTERVAL_MS);
      return true;
    },
    flushSync() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      for (let chunk = take(); chunk !== undefined && !gone; chunk = take()) {
        let offset = 0;
        while (offset < chunk.length) {
          try {
            offset += writeSync(fd, chunk, offset);
          } catch {
            // Full (EAGAIN) or gone: exiting must not wait on a reader, so the rest is lost.
            gone = true;
            return;
          }
        }
      }
    },
  };
  process.on("exit", () => output.flushSync());
  return output;
}
