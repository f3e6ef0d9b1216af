// npm run bench: POST /plants with unique ids, then GET /plants/{id} and a page of
// GET /plants on the plants stored, against the real service as `npm start` runs it (SQLite,
// and PostgreSQL when TEST_DATABASE_URL is set) and, in the same run, two ceilings: creates
// against a bare Fastify route with the same schema and bearer check and no store, and reads
// by id against a bare Fastify route with a prepared better-sqlite3 get. See BENCHMARKS.md,
// "How to run".
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, release, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  addCreated,
  drive,
  LIST_LIMIT,
  type LoadResult,
  type Operation,
  pickStored,
  type Stored,
} from "./bench/load.ts";
import { createPostgresDatabase } from "./bench/postgres-database.ts";
import { preloadSqlite } from "./bench/preload.ts";
import { type ServerSpec, startServer } from "./bench/server.ts";
import {
  CEILING,
  commitOf,
  cores,
  pinSelf,
  serviceCommand,
  serviceEnv,
  TOKEN,
  wholeNumber,
} from "./bench/service.ts";

const USAGE = `usage: npm run bench -- [options]
  --duration S      seconds of the counted run (10)
  --warmup S        seconds of load before it, not counted (3)
  --connections N   concurrent connections (50)
  --preload N       plants stored before the run (0)
  --workers LIST    PLANTSTORE_WORKERS values to run, e.g. 1,2 (1)
  --engines LIST    sqlite,postgres (sqlite, plus postgres when TEST_DATABASE_URL is set)
  --service DIR     run the service of another checkout (its \`npm start\`), with this bench and
                    these ceilings: a before/after series of commits on one bench (.). The
                    checkout needs its node_modules; the stores are created and preloaded
                    with this checkout's schema, so its schema must be the same.
PostgreSQL runs use a fresh database on TEST_DATABASE_URL's server, dropped afterwards.`;

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    preload: { type: "string", default: "0" },
    workers: { type: "string", default: "1" },
    engines: { type: "string" },
    service: { type: "string", default: "." },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const durationSeconds = wholeNumber("duration", values.duration);
const warmupSeconds = wholeNumber("warmup", values.warmup);
const connections = wholeNumber("connections", values.connections);
const preload = wholeNumber("preload", values.preload);
const workerCounts = values.workers.split(",").map((w) => wholeNumber("workers", w));
const adminUrl = process.env["TEST_DATABASE_URL"];
const engines = (values.engines ?? (adminUrl === undefined ? "sqlite" : "sqlite,postgres")).split(
  ",",
);
if (engines.includes("postgres") && adminUrl === undefined) {
  throw new Error(
    "--engines postgres needs TEST_DATABASE_URL (a PostgreSQL server to create a database on)",
  );
}

const { root: serviceRoot, command: SERVICE } = serviceCommand(values.service);

// One core for the server, the other for the load generator, when there are two to spare.
const serverCores = (workers: number) => (cores >= 2 && workers === 1 ? "0" : undefined);
const work = mkdtempSync(join(tmpdir(), "plantstore-bench-"));

interface Row extends LoadResult {
  target: string;
  operation: Operation;
  /** What the row is compared with: the create ceiling, the read ceiling, or nothing. */
  compareWith: "create ceiling" | "read ceiling" | undefined;
  rssMb: number;
  /** Server CPU time per answered request: what a request costs, whatever else the machine does. */
  cpuMicroseconds: number;
}
const rows: Row[] = [];
let nextId = preload;

const OPERATION_NAMES: Record<Operation, string> = {
  create: "create",
  get: "GET by id",
  list: `list page of ${LIST_LIMIT}`,
};

/**
 * Runs each operation in turn on one server: creates first, so that reads find plants. Each
 * create run adds its ids to `stored` but its last few (a request per connection may have
 * been cut off when the run ended).
 */
async function measure(
  target: string,
  spec: ServerSpec,
  workers: number,
  operations: readonly Operation[],
  stored: Stored = [[0, preload]],
  compareWith: (operation: Operation) => Row["compareWith"] = () => undefined,
): Promise<void> {
  pinSelf(serverCores(workers) !== undefined);
  const server = await startServer(spec);
  const run = async (load: Parameters<typeof drive>[0]): Promise<LoadResult> => {
    const result = await drive(load);
    if (result.errors > 0) {
      process.stderr.write(`bench: ${target}: ${load.operation}: ${result.errorKinds}\n`);
    }
    if (load.operation === "create") addCreated(stored, load.firstId, result, connections);
    return result;
  };
  try {
    for (const operation of operations) {
      const name = operations.length === 1 ? target : `${target}: ${OPERATION_NAMES[operation]}`;
      process.stderr.write(
        `bench: ${name}: ${warmupSeconds} s warm-up, ${durationSeconds} s counted\n`,
      );
      const load = {
        url: server.url,
        token: TOKEN,
        connections,
        operation,
        pickStored: () => pickStored(stored),
      };
      if (warmupSeconds > 0) {
        nextId += (await run({ ...load, durationSeconds: warmupSeconds, firstId: nextId })).sent;
      }
      const cpuBefore = server.cpuSeconds();
      const result = await run({ ...load, durationSeconds, firstId: nextId });
      const cpu = server.cpuSeconds() - cpuBefore;
      nextId += result.sent;
      rows.push({
        target: name,
        operation,
        compareWith: compareWith(operation),
        ...result,
        rssMb: server.peakRss().totalMb,
        cpuMicroseconds: (cpu * 1e6) / Math.max(1, result.answered),
      });
    }
  } finally {
    await server.stop();
  }
}

async function withPostgresDatabase(run: (url: string) => Promise<void>): Promise<void> {
  const database = await createPostgresDatabase(
    adminUrl ?? "",
    `plantstore_bench_${process.pid}`,
    preload,
  );
  try {
    await run(database.url);
  } finally {
    await database.drop();
  }
}

try {
  await measure(
    "ceiling (bare Fastify, no store)",
    {
      command: CEILING,
      env: { BENCH_TOKEN: TOKEN },
      cores: serverCores(1),
      logFile: join(work, "ceiling.log"),
    },
    1,
    ["create"],
    undefined,
    () => "create ceiling",
  );
  for (const engine of engines) {
    for (const workers of workerCounts) {
      const target = `${engine}, ${workers} worker${workers === 1 ? "" : "s"}${preload > 0 ? `, ${preload} stored` : ""}`;
      const spec = (url: string): ServerSpec => ({
        command: SERVICE,
        env: serviceEnv(url, workers),
        cores: serverCores(workers),
        logFile: join(work, `${engine}-${workers}.log`),
      });
      const operations: Operation[] = ["create", "get", "list"];
      if (engine === "sqlite") {
        const path = join(work, `plants-${workers}.db`);
        if (preload > 0) preloadSqlite(path, preload);
        const stored: Stored = [[0, preload]];
        await measure(target, spec(`sqlite:${path}`), workers, operations, stored, (op) =>
          op === "create" ? "create ceiling" : op === "get" ? "read ceiling" : undefined,
        );
        if (workers === workerCounts[0]) {
          // The read ceiling, on the file just written, after the service has stopped.
          await measure(
            `read ceiling (bare Fastify + a prepared better-sqlite3 get${preload > 0 ? `, ${preload} stored` : ""})`,
            {
              command: CEILING,
              env: { BENCH_TOKEN: TOKEN, BENCH_SQLITE_PATH: path },
              cores: serverCores(1),
              logFile: join(work, "read-ceiling.log"),
            },
            1,
            ["get"],
            stored,
            () => "read ceiling",
          );
        }
      } else if (engine === "postgres") {
        await withPostgresDatabase(async (url) => {
          await measure(target, spec(url), workers, operations, undefined, (op) =>
            op === "create" ? "create ceiling" : undefined,
          );
        });
      } else {
        throw new Error(`unknown engine ${engine}; use sqlite or postgres`);
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const ceilings = {
  "create ceiling": rows[0]?.requestsPerSecond ?? 0,
  "read ceiling": rows.find((row) => row.target.startsWith("read ceiling"))?.requestsPerSecond ?? 0,
};
const cpu = cpus()[0]?.model ?? "unknown CPU";
process.stdout.write(
  `\n${cores} × ${cpu}, Linux ${release()}, Node ${process.version}; ${connections} connections, ${durationSeconds} s counted after ${warmupSeconds} s warm-up; server on core 0 and load on core ${cores - 1} for 1-worker runs; bench at ${commitOf(".")}, service at ${commitOf(serviceRoot)}\n\n`,
);
process.stdout.write(
  "| target | req/s | × ceiling | p50 ms | p99 ms | errors | peak RSS MB | server CPU µs/request |\n",
);
process.stdout.write("|---|---:|---:|---:|---:|---:|---:|---:|\n");
for (const row of rows) {
  // Creates against the create ceiling, SQLite reads by id against the read ceiling.
  const ceiling = row.compareWith === undefined ? 0 : ceilings[row.compareWith];
  const ratio = ceiling > 0 ? (row.requestsPerSecond / ceiling).toFixed(2) : "-";
  process.stdout.write(
    `| ${row.target} | ${Math.round(row.requestsPerSecond)} | ${ratio} | ${row.p50Ms} | ${row.p99Ms} | ${row.errors} | ${Math.round(row.rssMb)} | ${Math.round(row.cpuMicroseconds)} |\n`,
  );
}
