// Where the service's log lines go: standard output, gathered and written asynchronously. A
// synchronous write per request (pino's default for stdout) took about 7% of a create's CPU
// (BENCHMARKS.md). Lines go out once a chunk has gathered or 250 ms have passed, in writes of
// whole lines. Into a file a chunk is 64 KiB, so that a loaded server makes a write (a trip
// through libuv's thread pool) per few hundred lines rather than per twenty. Into a pipe or
// socket it is 4 KiB, which a pipe keeps whole (PIPE_BUF): other processes may write into the
// same one (a cluster's workers, a shell's other commands), and their lines and ours never cut
// into each other. What is still gathered is written when the process exits, short of
// SIGKILL, an abort, or a signal left to its default action. Neither a stalled nor a closed
// standard output can stop or stall the service: at most 16 MiB wait (later lines are
// dropped), and once it is gone (EPIPE) lines are dropped.
import { fstatSync, write, writeSync } from "node:fs";
import { LineChunks } from "./line-chunks.ts";

/** PIPE_BUF on Linux: a write to a pipe of at most this many bytes is never interleaved. */
export const PIPE_BUF = 4096;
const CHUNK_BYTES = 64 * 1024;
const FLUSH_INTERVAL_MS = 250;
const MAX_GATHERED_BYTES = 16 * 1024 * 1024;
const RETRY_MS = 100;

export interface LogOutput {
  write(line: string): boolean;
  /** Writes what is gathered now, synchronously, giving up at the first failed write. */
  flushSync(): void;
}

/** How many bytes one write may hold so that no other process's line can cut into it. */
export function chunkBytesFor(fd: number): number {
  try {
    const stat = fstatSync(fd);
    // A regular file's writes are whole however long (the kernel holds the file position
    // for each); a pipe's only up to PIPE_BUF, and a socket's not at all beyond what one
    // write happens to take, so PIPE_BUF there too.
    return stat.isFIFO() || stat.isSocket() ? PIPE_BUF : CHUNK_BYTES;
  } catch {
    return PIPE_BUF;
  }
}

export function bufferedStandardOutput(fd = 1): LogOutput {
  const chunks = new LineChunks(chunkBytesFor(fd), MAX_GATHERED_BYTES);
  /** The rest of a chunk a write took only part of, or could not take yet: written first. */
  let retry: Buffer | undefined;
  let writing = false;
  let gone = false;
  let timer: NodeJS.Timeout | undefined;

  const take = (): Buffer | undefined => {
    if (retry === undefined) return chunks.take();
    const chunk = retry;
    retry = undefined;
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
          chunks.clear();
        }
        return;
      }
      if (written < chunk.length) retry = chunk.subarray(written);
      else chunks.release(chunk);
      if (retry !== undefined || chunks.hasWholeChunk) flush();
      else if (chunks.bytes > 0) later(FLUSH_INTERVAL_MS);
    });
  }

  const output: LogOutput = {
    write(line) {
      if (gone) return true;
      if (!chunks.add(line)) return true;
      if (chunks.hasWholeChunk) flush();
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
