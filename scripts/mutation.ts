// `npm run test:mutation [-- MODULE...]`: Stryker over each module of stryker.config.mjs (all of
// them when none is named), one run per module under nice, then the killed share of each.
// Incremental: a rerun tests only the mutants whose code or covering tests changed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { MODULES } from "../test/mutation/modules.mjs";

type Status =
  | "Killed"
  | "Timeout"
  | "Survived"
  | "NoCoverage"
  | "Ignored"
  | "CompileError"
  | "RuntimeError"
  | "Pending";
interface Report {
  files: Record<string, { mutants: { status: Status }[] }>;
}

const known = Object.keys(MODULES);
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`unknown module ${unknown.join(", ")}; modules: ${known.join(", ")}\n`);
  process.exit(2);
}

/** Stryker's mutation score: killed (or timed out) over the mutants a test could have caught. */
function score(name: string): string {
  const path = `reports/mutation/${name}.json`;
  if (!existsSync(path)) return `${name}: no report`;
  const report = JSON.parse(readFileSync(path, "utf8")) as Report;
  const count = { detected: 0, survived: 0, noCoverage: 0, ignored: 0 };
  for (const file of Object.values(report.files)) {
    for (const { status } of file.mutants) {
      if (status === "Killed" || status === "Timeout") count.detected += 1;
      else if (status === "Survived") count.survived += 1;
      else if (status === "NoCoverage") count.noCoverage += 1;
      else count.ignored += 1;
    }
  }
  const valid = count.detected + count.survived + count.noCoverage;
  const share = valid === 0 ? 100 : (100 * count.detected) / valid;
  return `${name}: ${share.toFixed(1)} % killed (${count.detected} of ${valid}; ${count.survived} survived, ${count.noCoverage} not covered; ${count.ignored} ignored or not compiling)`;
}

let failed = false;
for (const name of asked.length > 0 ? asked : known) {
  const started = Date.now();
  const run = spawnSync("nice", ["-n", "15", "npx", "stryker", "run", "stryker.config.mjs"], {
    stdio: "inherit",
    env: { ...process.env, MUTATION_MODULE: name },
  });
  if (run.status !== 0) failed = true;
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  process.stdout.write(`\n${score(name)} — ${minutes} min\n\n`);
}
process.exitCode = failed ? 1 : 0;
