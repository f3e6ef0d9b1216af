// npm run bench:paired: two servers on one core at the same time, each with a load of its own
// from the other core, and what a request costs each (CPU µs, from /proc) set side by side.
// Some machines here change speed from one run to the next by up to three times (BENCHMARKS.md,
// "Machine speed and why runs are paired"), so two runs one after the other cannot tell a 10%
// change; two servers sharing a core feel the same changes, and the ratio of their costs holds
// still. By default the service is paired with the ceilings (creates with the create ceiling, GETs
// by id with the read ceiling on the service's own file); with --service, this checkout's service
// with another's (list pages as well), or with itself on a store of another size (--other-preload),
// which is how a large store's cost is read. With --engine postgres the services store in
// PostgreSQL, whose own processes are neither pinned nor counted: the ratio is then of the
// service's own CPU.
//
// The ratio is of CPU per request, not of req/s: a server that waits (on an fsync, say) gives
// its share of the core to the other, so req/s would charge it for the other's speed. What a
// wait costs on its own, a run of `npm run bench` shows.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, release, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Operation } from "./load.ts";
import { loadInTurn, type Measured, type PairLoad, type Side } from "./pairing.ts";
import { type BenchServer, startServer } from "./server.ts";
import {
  CEILING,
  commitOf,
  cores,
  median,
  pinSelf,
  serviceCommand,
  TOKEN,
  wholeNumber,
} from "./service.ts";
import { startServiceOnStore } from "./service-store.ts";

const USAGE = `usage: npm run bench:paired -- [options]
  --rounds N        rounds, each a create pair and a GET pair (and with --service a list
                    page pair); even, since the two servers swap places every other round (4)
  --duration S      seconds counted per pair (8)
  --warmup S        seconds of load before, not counted (3)
  --connections N   concurrent connections to each server (50)
  --preload N       plants stored first in each store, every round (0)
  --engine NAME     sqlite or postgres (sqlite). postgres needs TEST_DATABASE_URL: each service
                    gets a fresh database of its own on that server each round; paired with the
                    ceilings, only creates are (there is no read ceiling on PostgreSQL)
  --service DIR     pair this checkout's service with DIR's (its node_modules installed),
                    instead of with the ceilings; both stores are created and preloaded with
                    this checkout's schema, so DIR's must be the same
  --other-preload N
                    with --service: plants stored first in the other service's store instead
                    of --preload's; --service . --other-preload 1000000 pairs the service on
                    --preload's store with itself on a million plants, in one pair`;

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "4" },
    duration: { type: "string", default: "8" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    preload: { type: "string", default: "0" },
    engine: { type: "string", default: "sqlite" },
    service: { type: "string" },
    "other-preload": { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const rounds = wholeNumber("rounds", values.rounds, 2);
if (rounds % 2 === 1) throw new Error("--rounds must be even: the servers swap places each round");
const durationSeconds = wholeNumber("duration", values.duration, 1);
const warmupSeconds = wholeNumber("warmup", values.warmup);
const connections = wholeNumber("connections", values.connections, 1);
const preload = wholeNumber("preload", values.preload);
if (values["other-preload"] !== undefined && values.service === undefined) {
  throw new Error("--other-preload needs --service: it sizes the other service's store");
}
const otherPreload =
  values["other-preload"] === undefined
    ? preload
    : wholeNumber("other-preload", values["other-preload"]);
if (cores < 2) throw new Error("bench:paired needs two cores: one for the servers, one for load");
const engine = values.engine;
if (engine !== "sqlite" && engine !== "postgres") {
  throw new Error(`--engine must be sqlite or postgres, got ${engine}`);
}
const adminUrl = process.env["TEST_DATABASE_URL"];
if (engine === "postgres" && adminUrl === undefined) {
  throw new Error(
    "--engine postgres needs TEST_DATABASE_URL (a PostgreSQL server to create databases on)",
  );
}

const ours = serviceCommand(".");
const other = values.service === undefined ? undefined : serviceCommand(values.service);
const otherName =
  other === undefined
    ? undefined
    : `service at ${commitOf(other.root)}${otherPreload === preload ? "" : ` (${otherPreload} plants stored first)`}`;
const work = mkdtempSync(join(tmpdir(), "plantstore-paired-"));
const SERVER_CORE = "0";

const load: PairLoad = { connections, durationSeconds, warmupSeconds };

interface Row {
  round: number;
  operation: Operation;
  /** What the service was paired with. */
  pairedWith: string;
  measured: [Measured, Measured];
}
const rows: Row[] = [];

const startService = async (
  command: string[],
  name: string,
  plants: number,
): Promise<BenchServer> =>
  (
    await startServiceOnStore({
      engine,
      adminUrl,
      work,
      command,
      name,
      plants,
      cores: SERVER_CORE,
    })
  ).server;

/** The create ceiling, or with a file the read ceiling on it. */
const startCeiling = (sqlitePath?: string): Promise<BenchServer> =>
  startServer({
    command: CEILING,
    env:
      sqlitePath === undefined
        ? { BENCH_TOKEN: TOKEN }
        : { BENCH_TOKEN: TOKEN, BENCH_SQLITE_PATH: sqlitePath },
    cores: SERVER_CORE,
    logFile: join(work, sqlitePath === undefined ? "ceiling.log" : "read-ceiling.log"),
  });

pinSelf(true);
let finished = false;
try {
  for (let round = 1; round <= rounds; round++) {
    process.stderr.write(`bench:paired: round ${round} of ${rounds}\n`);
    // Each round starts from fresh files, so that no round writes into a larger store.
    const firstId = Math.max(preload, otherPreload) + 100_000_000 * round;
    const a: Side = {
      server: await startService(ours.command, "a", preload),
      stored: [[0, preload]],
    };
    let b: Side | undefined;
    try {
      b = {
        server:
          other === undefined
            ? await startCeiling()
            : await startService(other.command, "b", otherPreload),
        stored: [[0, otherPreload]],
      };
      rows.push({
        round,
        operation: "create",
        pairedWith: otherName ?? "create ceiling",
        measured: await loadInTurn(round, a, b, "create", firstId, load),
      });
      if (other === undefined) {
        // No read ceiling on PostgreSQL: on to the next round (finally stops both servers).
        if (engine === "postgres") continue;
        // The read ceiling reads the service's own file, stored by the creates just made.
        await b.server.stop();
        b = {
          server: await startCeiling(join(work, "a.db")),
          stored: a.stored,
        };
      }
      rows.push({
        round,
        operation: "get",
        pairedWith: otherName ?? "read ceiling",
        measured: await loadInTurn(round, a, b, "get", 0, load),
      });
      // Two services also read pages (there is no page ceiling): what an answer's size costs.
      if (other !== undefined) {
        rows.push({
          round,
          operation: "list",
          pairedWith: otherName ?? "",
          measured: await loadInTurn(round, a, b, "list", 0, load),
        });
      }
    } finally {
      // Each stop also drops its server's database, so a failure of one must not skip the other.
      try {
        await b?.server.stop();
      } finally {
        await a.server.stop();
      }
    }
  }
  finished = true;
} finally {
  // The servers' logs stay for a run that failed, where its error says to look.
  if (finished) rmSync(work, { recursive: true, force: true });
  else process.stderr.write(`bench:paired: the servers' logs are in ${work}\n`);
}

const ratio = (row: Row): number =>
  row.measured[1].cpuMicroseconds / row.measured[0].cpuMicroseconds;

/** What the stores held first: one size for both, or each side's when they differ. */
function storesLine(): string {
  if (otherPreload !== preload) {
    return `; the service's store: ${preload} plants first, the other's: ${otherPreload}`;
  }
  return preload > 0 ? `; ${preload} plants stored first` : "";
}

process.stdout.write(
  `\n${cores} × ${cpus()[0]?.model ?? "unknown CPU"}, Linux ${release()}, Node ${process.version}; both servers on core ${SERVER_CORE} at once, load on core ${cores - 1}; ${connections} connections to each, ${durationSeconds} s counted after ${warmupSeconds} s warm-up${storesLine()}; ${engine}; service at ${commitOf(ours.root)}\n\n`,
);
process.stdout.write(
  "| round | operation | service: req/s, CPU µs/request, errors | paired with | its req/s, CPU µs/request, errors | its CPU ÷ the service's |\n",
);
process.stdout.write("|---:|---|---|---|---|---:|\n");
const cell = (m: Measured) =>
  `${Math.round(m.requestsPerSecond)}, ${Math.round(m.cpuMicroseconds)}, ${m.errors}`;
for (const row of rows) {
  process.stdout.write(
    `| ${row.round} | ${row.operation} | ${cell(row.measured[0])} | ${row.pairedWith} | ${cell(row.measured[1])} | ${ratio(row).toFixed(3)} |\n`,
  );
}
process.stdout.write("\n");
for (const operation of ["create", "get", "list"] as const) {
  const these = rows.filter((row) => row.operation === operation);
  if (these.length === 0) continue;
  const ratios = these.map(ratio);
  process.stdout.write(
    `${operation}: ${these[0]?.pairedWith} CPU ÷ the service's, median of ${ratios.length}: ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})\n`,
  );
}
for (const row of rows) {
  for (const [at, m] of row.measured.entries()) {
    if (m.errors === 0) continue;
    const name = at === 0 ? "service" : row.pairedWith;
    process.stderr.write(
      `bench:paired: round ${row.round}, ${row.operation}, ${name}: ${m.errorKinds}\n`,
    );
    process.exitCode = 1;
  }
}
