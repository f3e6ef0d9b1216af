// The suites `npm run test:mutation` (stryker.config.mjs) runs against each mutant: the ones that
// call the mutated modules in this process. Suites that only talk to a spawned server are left
// out — the server runs the unmutated build in dist/, so they can kill no mutant and would only
// slow the first, unmutated run. SQLite only: the PostgreSQL suites cover the same store
// contract, and a run must fit on a shared two-core machine.
import { defineConfig } from "vitest/config";
import { shared } from "./vitest.config.ts";

// Set here, before the workers start, so that they and the global setup see it (empty is unset).
process.env["TEST_DATABASE_URL"] = "";

export default defineConfig({
  test: {
    ...shared,
    name: "mutation",
    globalSetup: ["test/mutation/global-setup.ts"],
    // Modules stay loaded from one mutant's rerun to the next (Stryker switches mutants at run
    // time): without this each rerun imports and transforms the module graph again, most of a
    // mutant's time. A suite that needs a fresh module fails the unmutated run, which stops Stryker.
    isolate: false,
    include: ["test/{unit,store,auth,spec-diff,contract,webhooks,conformance}/**/*.test.ts"],
    exclude: [
      "**/node_modules/**",
      // A spawned server delivers: the deliverer under test is dist/'s, not the mutant.
      "test/webhooks/{delivery,fairness,restart,two-instances}.test.ts",
      // The CLI as a child process.
      "test/conformance/cli.test.ts",
    ],
  },
});
