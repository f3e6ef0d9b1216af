// npm run test:cluster: the suites that run PostgreSQL clusters of their own and PgBouncer
// (test/cluster), apart from the quick suite because they take minutes; .ci/run runs both.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/cluster/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Clusters are made, copied and failed over within one test.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One suite at a time: each loads the machine's two cores on its own.
    fileParallelism: false,
    reporters: ["dot"],
  },
});
