// npm run bench:migration: what the migration `npm run generate` writes for a new optional,
// indexed member of plants costs a server already serving, on a big table. The service starts on
// a store preloaded with --plants plants; a bounded create load runs against it (--rate a second
// over --connections); meanwhile the migration is applied as a new release's instance applies it
// at start (SQLite: openSqliteDatabase; PostgreSQL: migratePostgresGenerated, under the lease,
// each step with its lock_timeout), derived as scripts/migration.ts derives it: the document's
// tables against the same document with the member added (tableChanges, then each engine's
// statements). Reported: the migration's duration, the creates in flight at any moment of it
// (sent before it ended, answered after it began) and their latency, and every error of the run. The database or file is dropped at the end.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, release, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import type { Document } from "openapi-backend";
import { dereference } from "../../src/openapi/backend.ts";
import { apiData } from "../../src/openapi/data.ts";
import { loadDocument } from "../../src/openapi/document.ts";
import { describeChanges, tableChanges } from "../../src/store/migrations/diff.ts";
import { GENERATED_MIGRATIONS } from "../../src/store/migrations/index.ts";
import type { GeneratedMigration } from "../../src/store/migrations/migration.ts";
import { connectPostgres } from "../../src/store/postgres/connect.ts";
import { postgresSteps } from "../../src/store/postgres/ddl.ts";
import { migratePostgresGenerated } from "../../src/store/postgres/migrations.ts";
import { sqliteStatements } from "../../src/store/sqlite/ddl.ts";
import { openSqliteDatabase } from "../../src/store/sqlite/store.ts";
import { createRequests, errorKinds } from "./load.ts";
import { benchDatabase } from "./postgres-database.ts";
import {
  benchEngines,
  commitOf,
  cores,
  pinSelf,
  serviceCommand,
  TOKEN,
  wholeNumber,
  withDeadline,
} from "./service.ts";
import { type StoreLocation, startServiceOnStore } from "./service-store.ts";

const USAGE = `usage: npm run bench:migration -- [options]
  --plants N        plants stored before the server starts (1000000)
  --rate N          creates a second, over all connections (200)
  --connections N   concurrent connections (4)
  --margin S        seconds of load before the migration starts, and after it ends (3)
  --engines LIST    sqlite,postgres (sqlite, plus postgres when TEST_DATABASE_URL is set)`;

const { values } = parseArgs({
  options: {
    plants: { type: "string", default: "1000000" },
    rate: { type: "string", default: "200" },
    connections: { type: "string", default: "4" },
    margin: { type: "string", default: "3" },
    engines: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const plants = wholeNumber("plants", values.plants);
const rate = wholeNumber("rate", values.rate, 1);
const connections = wholeNumber("connections", values.connections, 1);
const marginMs = wholeNumber("margin", values.margin) * 1000;
const adminUrl = process.env["TEST_DATABASE_URL"];
const engines = benchEngines(values.engines, adminUrl);

/** The member the migration adds: optional, so the rows stored before keep NULL. */
const MEMBER = "benchMember";
/** Preload, start, load and migration of one engine; past it, the run is stuck. */
const ENGINE_DEADLINE_MS = 20 * 60_000;
/** A create unanswered this long counts as a timeout (an error). */
const REQUEST_TIMEOUT_S = 30;

/** The migration generate would write for MEMBER added to plants, x-indexed. */
async function memberMigration(): Promise<GeneratedMigration> {
  const document = loadDocument();
  const edited = structuredClone(document) as Document & {
    components: { schemas: Record<string, { properties: Record<string, unknown> }> };
  };
  const plant = edited.components.schemas["Plant"];
  if (plant === undefined) throw new Error("the document has no Plant schema");
  plant.properties[MEMBER] = { type: "string", maxLength: 100, "x-indexed": true };
  const tablesOf = async (doc: Document) => apiData(await dereference(doc)).tables;
  const changes = tableChanges(await tablesOf(document), await tablesOf(edited));
  return {
    id: `9999-${describeChanges(changes).slug}`,
    summary: describeChanges(changes).summary,
    sqlite: changes.flatMap(sqliteStatements),
    postgres: changes.flatMap(postgresSteps),
  };
}

/** The migration applied as a new release's instance applies it when it starts. */
async function applyMigration(store: StoreLocation, migration: GeneratedMigration): Promise<void> {
  const generated = [...GENERATED_MIGRATIONS, migration];
  if (store.engine === "sqlite") {
    openSqliteDatabase(store.path, generated).db.close();
    return;
  }
  const database = benchDatabase(store.url);
  const sql = connectPostgres(database, { pooled: false, startup: true });
  try {
    const applied = await migratePostgresGenerated(sql, {
      generated,
      steps: () => connectPostgres(database, { pooled: false, startup: true, unbounded: true }),
    });
    if (!applied.includes(migration.id)) throw new Error(`${migration.id} was not applied`);
  } finally {
    await sql.end();
  }
}

interface Answer {
  /** When the request was sent, and how long its answer took (ms). */
  sentAt: number;
  ms: number;
  ok: boolean;
}

interface Row {
  engine: string;
  migrationMs: number;
  /** Creates in flight while the migration ran, and those of them answered 2xx. */
  during: number;
  answeredDuring: number;
  p50DuringMs: number;
  p99DuringMs: number;
  maxDuringMs: number;
  /** The creates before and after it, for comparison. */
  p50OutsideMs: number;
  p99OutsideMs: number;
  /** Creates answered 2xx in the whole run, and its length (s). */
  answeredRun: number;
  runSeconds: number;
  errors: number;
  errorKinds: string;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function measure(
  engine: "sqlite" | "postgres",
  migration: GeneratedMigration,
  work: string,
): Promise<Row> {
  process.stderr.write(`bench:migration: ${engine}, storing ${plants} plants\n`);
  const { server, store } = await startServiceOnStore({
    engine,
    adminUrl,
    work,
    command: service.command,
    name: `migration_${engine}`,
    plants,
    cores: SERVER_CORE,
  });
  try {
    const creates = createRequests(plants);
    const answers: Answer[] = [];
    let settle: (error: unknown, result: autocannon.Result) => void = () => undefined;
    const finished = new Promise<autocannon.Result>((resolve, reject) => {
      settle = (error, result) => (error ? reject(error) : resolve(result));
    });
    const load = autocannon(
      {
        url: `${server.url}/plants`,
        connections,
        overallRate: rate,
        // Stopped once the migration and the margin after it are over.
        duration: ENGINE_DEADLINE_MS / 1000,
        timeout: REQUEST_TIMEOUT_S,
        headers: { authorization: `Bearer ${TOKEN}` },
        requests: [creates.request],
      },
      (error, result) => settle(error, result),
    );
    load.on("response", (_client, status, _bytes, ms) => {
      answers.push({ sentAt: performance.now() - ms, ms, ok: status >= 200 && status < 300 });
    });
    const loadBegan = performance.now();
    let began = 0;
    let ended = 0;
    try {
      await sleep(marginMs);
      process.stderr.write(`bench:migration: ${engine}, migrating (${migration.summary})\n`);
      began = performance.now();
      await applyMigration(store, migration);
      ended = performance.now();
      await sleep(marginMs);
    } finally {
      load.stop();
    }
    const result = await finished;
    // A create held up by the migration was sent before it began: in flight is what counts.
    const during = answers.filter((a) => a.sentAt <= ended && a.sentAt + a.ms >= began);
    const times = during.map((a) => a.ms).sort((x, y) => x - y);
    const outside = answers
      .filter((a) => !during.includes(a))
      .map((a) => a.ms)
      .sort((x, y) => x - y);
    return {
      engine,
      migrationMs: ended - began,
      during: during.length,
      answeredDuring: during.filter((a) => a.ok).length,
      p50DuringMs: percentile(times, 50),
      p99DuringMs: percentile(times, 99),
      maxDuringMs: times.at(-1) ?? 0,
      p50OutsideMs: percentile(outside, 50),
      p99OutsideMs: percentile(outside, 99),
      answeredRun: answers.filter((a) => a.ok).length,
      runSeconds: (performance.now() - loadBegan) / 1000,
      errors: result.errors + result.timeouts + result.non2xx,
      errorKinds: errorKinds(result),
    };
  } finally {
    await server.stop();
  }
}

const SERVER_CORE = "0";
if (cores < 2) throw new Error("bench:migration needs two cores: one for the server, one for load");
const migration = await memberMigration();
const service = serviceCommand(".");
const work = mkdtempSync(join(tmpdir(), "plantstore-migration-"));
pinSelf(true);
const rows: Row[] = [];
let finished = false;
try {
  for (const engine of engines) {
    rows.push(await withDeadline(measure(engine, migration, work), ENGINE_DEADLINE_MS, engine));
  }
  finished = true;
} finally {
  if (finished) rmSync(work, { recursive: true, force: true });
  else process.stderr.write(`bench:migration: the server's log is in ${work}\n`);
}

const out = (line = "") => process.stdout.write(`${line}\n`);
const ms = (value: number) => value.toFixed(1);
out();
out(
  `${cores} × ${cpus()[0]?.model ?? "unknown CPU"}, Linux ${release()}, Node ${process.version}; service at ${commitOf(".")} on core ${SERVER_CORE}, load on core ${cores - 1}; ${plants} plants stored first; ${rate} creates a second over ${connections} connections, ${marginMs / 1000} s before and after the migration`,
);
out();
out(`The migration (${migration.summary}):`);
for (const statement of migration.sqlite) out(`- sqlite: ${statement}`);
for (const step of migration.postgres) out(`- postgres: ${step.sql}`);
out();
out(
  "| engine | migration s | creates in flight during it: answered 2xx | their p50 ms | p99 ms | slowest ms | p50, p99 ms before and after it | creates a second, whole run | errors |",
);
out("|---|---:|---|---:|---:|---:|---|---:|---|");
for (const row of rows) {
  out(
    `| ${row.engine} | ${(row.migrationMs / 1000).toFixed(2)} | ${row.during}: ${row.answeredDuring} | ${ms(row.p50DuringMs)} | ${ms(row.p99DuringMs)} | ${ms(row.maxDuringMs)} | ${ms(row.p50OutsideMs)}, ${ms(row.p99OutsideMs)} | ${Math.round(row.answeredRun / row.runSeconds)} | ${row.errors}${row.errorKinds === "" ? "" : ` (${row.errorKinds})`} |`,
  );
}
