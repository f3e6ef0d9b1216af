// `npm run test:mutation [-- MODULE | MODULE/PART ...]`: Stryker over each part named (every part
// of every module of test/mutation/modules.mjs when none is), one run a part under nice, then the
// killed share of each part and module. Incremental: a rerun tests only the mutants whose code or
// covering tests changed since the part's last run.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { MODULES } from "../test/mutation/modules.mjs";

interface Report {
  files: Record<string, { mutants: { status: string }[] }>;
}
interface Count {
  detected: number;
  survived: number;
  noCoverage: number;
  ignored: number;
}

const allParts = Object.entries(MODULES).flatMap(([module, parts]) =>
  Object.keys(parts).map((part) => `${module}/${part}`),
);
const asked = process.argv.slice(2);
const chosen =
  asked.length === 0
    ? allParts
    : allParts.filter((p) => asked.some((a) => p === a || p.startsWith(`${a}/`)));
const unknown = asked.filter((a) => !allParts.some((p) => p === a || p.startsWith(`${a}/`)));
if (unknown.length > 0) {
  process.stderr.write(`unknown ${unknown.join(", ")}; parts: ${allParts.join(", ")}\n`);
  process.exit(2);
}

/** A part's mutants by outcome, from its last report; undefined when it has none. */
function count(part: string): Count | undefined {
  const path = `reports/mutation/${part.replace("/", "-")}.json`;
  if (!existsSync(path)) return undefined;
  const report = JSON.parse(readFileSync(path, "utf8")) as Report;
  const counted: Count = { detected: 0, survived: 0, noCoverage: 0, ignored: 0 };
  for (const file of Object.values(report.files)) {
    for (const { status } of file.mutants) {
      if (status === "Killed" || status === "Timeout") counted.detected += 1;
      else if (status === "Survived") counted.survived += 1;
      else if (status === "NoCoverage") counted.noCoverage += 1;
      // Ignored (static, or a `Stryker disable` with its reason) and not compiling.
      else counted.ignored += 1;
    }
  }
  return counted;
}

/** Stryker's mutation score: killed (or timed out) over the mutants a test could have caught. */
function line(name: string, c: Count): string {
  const valid = c.detected + c.survived + c.noCoverage;
  const share = valid === 0 ? 100 : (100 * c.detected) / valid;
  return `${name}: ${share.toFixed(1)} % killed (${c.detected} of ${valid}; ${c.survived} survived, ${c.noCoverage} not covered; ${c.ignored} ignored or not compiling)`;
}

let failed = false;
for (const part of chosen) {
  const started = Date.now();
  const run = spawnSync("nice", ["-n", "15", "npx", "stryker", "run", "stryker.config.mjs"], {
    stdio: "inherit",
    env: { ...process.env, MUTATION_PART: part },
  });
  if (run.status !== 0) failed = true;
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  process.stdout.write(`\n${part}: Stryker ran ${minutes} min\n`);
}

process.stdout.write("\n");
for (const module of Object.keys(MODULES)) {
  const parts = allParts.filter((p) => p.startsWith(`${module}/`));
  const counts = parts.map((p) => [p, count(p)] as const);
  for (const [p, c] of counts)
    process.stdout.write(c ? `${line(p, c)}\n` : `${p}: no report yet\n`);
  const total: Count = { detected: 0, survived: 0, noCoverage: 0, ignored: 0 };
  for (const [, c] of counts) {
    if (c === undefined) continue;
    for (const key of Object.keys(total) as (keyof Count)[]) total[key] += c[key];
  }
  if (parts.length > 1 && counts.every(([, c]) => c !== undefined)) {
    process.stdout.write(`${line(module, total)}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
