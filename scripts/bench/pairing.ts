// Two servers loaded at the same time, each from the last core, and what a request cost each
// (CPU µs from /proc ÷ answers): the pairing of npm run bench:paired and bench:webhooks.
import {
  addCreated,
  drive,
  type LoadResult,
  type Operation,
  pickStored,
  type Stored,
} from "./load.ts";
import type { BenchServer } from "./server.ts";
import { TOKEN } from "./service.ts";

export interface Side {
  server: BenchServer;
  /** Id numbers stored in its store: what its GETs pick from. */
  stored: Stored;
}

export interface Measured extends LoadResult {
  cpuMicroseconds: number;
}

export interface PairLoad {
  connections: number;
  durationSeconds: number;
  /** Seconds of load before the counted run, not counted. */
  warmupSeconds: number;
}

/** Loads both servers at once; the warm-up's creates (if any) are added to each side's store. */
async function loadBoth(
  sides: readonly [Side, Side],
  operation: Operation,
  firstId: number,
  load: PairLoad,
): Promise<[Measured, Measured]> {
  const once = async (side: Side, seconds: number, first: number): Promise<LoadResult> => {
    const result = await drive({
      url: side.server.url,
      token: TOKEN,
      connections: load.connections,
      durationSeconds: seconds,
      operation,
      firstId: first,
      pickStored: () => pickStored(side.stored),
    });
    if (operation === "create") addCreated(side.stored, first, result, load.connections);
    return result;
  };
  if (load.warmupSeconds > 0) {
    await Promise.all(sides.map((side) => once(side, load.warmupSeconds, firstId)));
  }
  const before = sides.map((side) => side.server.cpuSeconds());
  const results = await Promise.all(
    sides.map((side) => once(side, load.durationSeconds, firstId + 10_000_000)),
  );
  return [0, 1].map((at) => {
    const result = results[at] as LoadResult;
    const cpu = (sides[at] as Side).server.cpuSeconds() - (before[at] as number);
    return { ...result, cpuMicroseconds: (cpu * 1e6) / Math.max(1, result.answered) };
  }) as [Measured, Measured];
}

/**
 * loadBoth with the two sides' places swapped every other round. The load started second
 * gets a small edge: paired with itself, the service in the second place came out 3–5%
 * cheaper a GET (BENCHMARKS.md, "Machine speed and why runs are paired"). Swapping cancels it
 * in the median of an even number of rounds.
 */
export async function loadInTurn(
  round: number,
  a: Side,
  b: Side,
  operation: Operation,
  firstId: number,
  load: PairLoad,
): Promise<[Measured, Measured]> {
  if (round % 2 === 1) return loadBoth([a, b], operation, firstId, load);
  const [forB, forA] = await loadBoth([b, a], operation, firstId, load);
  return [forA, forB];
}
