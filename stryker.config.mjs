// @ts-check
// Mutation testing of the core (`npm run test:mutation`, scripts/mutation.ts): the modules where a
// fault the suites miss costs most, one Stryker run each, so a module's score and its incremental
// file are its own. MUTATION_MODULE names the module a run mutates (test/mutation/modules.mjs).
import { MODULES } from "./test/mutation/modules.mjs";

const name = process.env["MUTATION_MODULE"] ?? "";
const module = MODULES[/** @type {keyof typeof MODULES} */ (name)];
if (module === undefined) {
  throw new Error(`MUTATION_MODULE must name one of ${Object.keys(MODULES).join(", ")}`);
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: module.mutate,
  testFiles: module.tests,
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  // Each mutant runs only the tests that reached it in the unmutated run.
  coverageAnalysis: "perTest",
  checkers: ["typescript"],
  tsconfigFile: "tsconfig.json",
  // A mutant of a module-level constant is reached by every test; running the whole set once per
  // such mutant is hours on two cores. They are counted as ignored, not as killed.
  ignoreStatic: true,
  // Results of the last run are reused for mutants whose code and tests did not change.
  incremental: true,
  incrementalFile: `test/mutation/${name}.incremental.json`,
  // The machine is shared: one mutant at a time (the script runs Stryker under nice).
  concurrency: 1,
  // A busy machine slows a run; a slow run must not pass for a mutant's timeout (a kill).
  timeoutMS: 20_000,
  timeoutFactor: 2,
  // The unmutated run of the conformance suites starts servers; minutes on a busy machine.
  dryRunTimeoutMinutes: 30,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  clearTextReporter: { allowColor: false, logTests: false },
  ignorePatterns: ["dist", "data", "reports", "test-results", "coverage", "*.db*"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
