import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // npm run test:cluster runs these (vitest.cluster.config.ts).
    exclude: ["test/cluster/**", "**/node_modules/**"],
    globalSetup: ["test/global-setup.ts"],
    // Socket suites spawn real server processes; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // One dot per test and the failures in full: a passing run fits on a screen.
    reporters: ["dot"],
  },
});
