// The sets of suites, in one configuration. `npm test` runs `main`, every suite but these:
// `cluster` (`npm run test:cluster`), the suites that make PostgreSQL clusters of their own and
// run PgBouncer, minutes that load both cores on their own; `bench` (`npm run test:bench`), the
// smoke runs of the benchmark scripts. .ci/run runs the three. `quick` (`npm run test:quick`)
// is a part of `main` for the editing loop: the document's own checks and the contract suites.
import { defineConfig } from "vitest/config";

// What every set shares (and the mutation run's configuration, vitest.mutation.config.ts). Not
// `extends: true`: a project extending the root would run the root's global setup (the build) a
// second time.
export const shared = {
  pool: "forks",
  // Deadlines for what a test waits on are its own (waitUntil and the helpers'); these only
  // catch a test that hangs, on a machine as busy as it gets.
  testTimeout: 60_000,
  hookTimeout: 60_000,
} as const;

export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    // Both cores: most suites wait on sockets, child processes and the disk, not on the CPU.
    maxWorkers: 2,
    // One dot per test and the failures in full: a passing run fits on a screen.
    reporters: ["dot"],
    projects: [
      {
        test: {
          ...shared,
          name: "main",
          include: ["test/**/*.test.ts"],
          exclude: ["test/cluster/**", "test/bench/**", "**/node_modules/**"],
        },
      },
      {
        test: {
          ...shared,
          name: "quick",
          include: [
            "test/spec/{document,generated,descriptions,contract-checker,examples,spec-version}.test.ts",
            "test/contract/**/*.test.ts",
          ],
        },
      },
      {
        test: {
          ...shared,
          name: "cluster",
          include: ["test/cluster/**/*.test.ts"],
          // Clusters are made, copied and failed over within one test.
          testTimeout: 180_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          ...shared,
          name: "bench",
          include: ["test/bench/**/*.test.ts"],
          testTimeout: 180_000,
          // Two files at once: each mostly waits on its servers' warm-up and rounds, and a smoke
          // run asserts no speed (half of .ci/run's time for them).
        },
      },
    ],
  },
});
