// @ts-check
// The modules of `npm run test:mutation`, read by stryker.config.mjs and scripts/mutation.ts.

/**
 * Module name → the files Stryker mutates in it (folder globs, so renamed files stay in) and the
 * suites that test it: a mutant runs only those of them that reached it in the unmutated run.
 */
export const MODULES = {
  "spec-diff": {
    mutate: ["src/spec-diff/**/*.ts"],
    tests: ["test/spec-diff/**/*.test.ts"],
  },
  "conformance-steps": {
    mutate: ["src/conformance/steps.ts"],
    tests: ["test/conformance/{conformance,faults,webhooks,hostile-deployment}.test.ts"],
  },
  webhooks: {
    mutate: ["src/webhooks/**/*.ts"],
    tests: ["test/webhooks/**/*.test.ts", "test/unit/slots.test.ts"],
  },
  outbox: {
    mutate: ["src/store/outbox.ts", "src/store/webhooks.ts"],
    tests: [
      "test/store/{webhook-store,webhook-races,sqlite}.test.ts",
      "test/webhooks/**/*.test.ts",
      "test/unit/slots.test.ts",
      "test/contract/*webhook*.test.ts",
    ],
  },
  writes: {
    mutate: ["src/store/{writes,batcher,rows}.ts"],
    tests: [
      "test/unit/batcher.test.ts",
      "test/store/{sqlite,write-refusals,declared-tables}.test.ts",
      "test/contract/{create,plants,update-plant,stored-data,int64}.test.ts",
    ],
  },
  auth: {
    mutate: ["src/auth/**/*.ts"],
    tests: [
      "test/auth/**/*.test.ts",
      "test/unit/{bearer,token-cache,managed-token,auth-response,config-jwt}.test.ts",
      "test/store/token-store.test.ts",
      "test/contract/{auth,jwt,managed-tokens}.test.ts",
    ],
  },
};
