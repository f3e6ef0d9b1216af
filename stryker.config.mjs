// @ts-check
// Mutation testing of the core (`npm run test:mutation`, scripts/mutation.ts): the modules where a
// fault the suites miss costs most (test/mutation/modules.mjs). One Stryker run for each part of
// a module, with its own report and incremental file.
import { MODULES } from "./test/mutation/modules.mjs";

// MUTATION_PART: "module/part".
const name = process.env["MUTATION_PART"] ?? "";
const [moduleName = "", partName = ""] = name.split("/");
/** @type {Record<string, Record<string, { mutate: string[], tests: string[] }>>} */
const modules = MODULES;
const part = modules[moduleName]?.[partName];
if (part === undefined) {
  throw new Error(`MUTATION_PART must be MODULE/PART of test/mutation/modules.mjs, not "${name}"`);
}
const file = name.replace("/", "-");

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: part.mutate,
  testFiles: part.tests,
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  // Each mutant runs only the tests that reached it in the unmutated run.
  coverageAnalysis: "perTest",
  checkers: ["typescript"],
  // Only what the mutated code compiles against: the checker starts in a fraction of the time.
  tsconfigFile: "tsconfig.mutation.json",
  // A mutant of a module-level constant is reached by every test; running the whole set once per
  // such mutant is hours on two cores. They are counted as ignored, not as killed.
  ignoreStatic: true,
  // Results of the last run are reused for mutants whose code and tests did not change.
  incremental: true,
  incrementalFile: `test/mutation/${file}.incremental.json`,
  // The machine is shared: one mutant at a time (the script runs Stryker under nice).
  concurrency: 1,
  // A busy machine slows a run; a slow run must not pass for a mutant's timeout (a kill).
  timeoutMS: 20_000,
  timeoutFactor: 2,
  // The unmutated run of the conformance suites starts servers; minutes on a busy machine.
  dryRunTimeoutMinutes: 30,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `reports/mutation/${file}.html` },
  jsonReporter: { fileName: `reports/mutation/${file}.json` },
  clearTextReporter: { allowColor: false, logTests: false },
  // Anchored: a test fixture may be a database file (test/fixtures/release-6/plants.db).
  ignorePatterns: ["/dist", "/data", "/reports", "/test-results", "/coverage", "/*.db*"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
