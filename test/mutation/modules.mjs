// @ts-check
// The modules of `npm run test:mutation`, read by stryker.config.mjs and scripts/mutation.ts.

/** The webhook suites that run the deliverer in the test's process, not in a spawned server's. */
const IN_PROCESS_WEBHOOKS =
  "test/webhooks/{endpoint-gone,send,signature,endpoint-address,declared-events}.test.ts";

/**
 * Module → its parts → the files Stryker mutates in a part (folder globs where they can be, so
 * renamed files stay in) and the suites that test it: a mutant runs only those of them that
 * reached it in the unmutated run. A part is one Stryker run, with its own report and incremental
 * file; a part with unit tests of its own is apart from the slower suites, so it reruns in minutes.
 */
export const MODULES = {
  "spec-diff": {
    // The unit tables alone: each of classify.test.ts's edits diffs the whole document (0.3 s),
    // and a survivor ran them all, over an hour and a half a run. It stays in `npm test`.
    classify: {
      mutate: ["src/spec-diff/{classify,diff,webhook-events}.ts"],
      tests: ["test/spec-diff/{rules,places}.test.ts"],
    },
    command: {
      mutate: ["src/spec-diff/**/*.ts", "!src/spec-diff/{classify,diff,webhook-events}.ts"],
      tests: ["test/spec-diff/**/*.test.ts"],
    },
  },
  "conformance-steps": {
    steps: {
      mutate: ["src/conformance/steps.ts"],
      tests: ["test/conformance/{conformance,faults,webhooks,hostile-deployment,steps}.test.ts"],
    },
  },
  webhooks: {
    slots: {
      mutate: ["src/webhooks/slots.ts"],
      tests: ["test/unit/slots.test.ts"],
    },
    deliverer: {
      mutate: ["src/webhooks/**/*.ts", "!src/webhooks/slots.ts"],
      tests: [
        IN_PROCESS_WEBHOOKS,
        "test/unit/{claim-loop,retry-schedule,upkeep,deliverer-metrics,dispatch,deliverer}.test.ts",
      ],
    },
  },
  outbox: {
    outbox: {
      mutate: ["src/store/outbox.ts", "src/store/webhooks.ts"],
      tests: [
        "test/unit/outbox.test.ts",
        "test/store/{webhook-store,webhook-races}.test.ts",
        IN_PROCESS_WEBHOOKS,
        "test/contract/*webhook*.test.ts",
      ],
    },
  },
  writes: {
    batcher: {
      mutate: ["src/store/batcher.ts"],
      tests: ["test/unit/batcher.test.ts"],
    },
    store: {
      mutate: ["src/store/{writes,rows}.ts"],
      tests: [
        "test/unit/{write-path,rows}.test.ts",
        "test/store/{sqlite,write-refusals,declared-tables}.test.ts",
        "test/contract/{create,plants,update-plant,stored-data}.test.ts",
      ],
    },
  },
  auth: {
    // Three parts, each a run that fits in well under an hour: the token cache and format, with
    // unit tests of their own; JWTs; and the rest (the authenticator, managed tokens in the
    // store), reached through the app.
    cache: {
      mutate: ["src/auth/{token-cache,managed-token}.ts"],
      tests: ["test/unit/{token-cache,managed-token}.test.ts"],
    },
    jwt: {
      mutate: ["src/auth/{jwt,jwt-keys}.ts"],
      tests: ["test/unit/{config-jwt,jwt-verifier}.test.ts", "test/contract/jwt.test.ts"],
    },
    auth: {
      mutate: ["src/auth/**/*.ts", "!src/auth/{token-cache,managed-token,jwt,jwt-keys}.ts"],
      tests: [
        "test/auth/**/*.test.ts",
        "test/unit/{bearer,bearer-reasons,managed-token-check,auth-response,authenticator}.test.ts",
        "test/unit/{cached-tokens,last-uses,token-purge,issue-token,managed-token-timers}.test.ts",
        "test/store/token-store.test.ts",
        "test/contract/{auth,jwt,managed-tokens}.test.ts",
      ],
    },
  },
};
