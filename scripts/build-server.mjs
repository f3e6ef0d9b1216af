// Compiles the server for `npm start`: src/main.ts and the SQLite write thread, each bundled
// with our own code into JavaScript under dist/server/ (npm packages stay imports). Run on
// every `npm start` (and once per test run), so what runs is always what the sources and
// generated/ say now; it takes a fraction of a second. Without it the server would run
// through tsx, which costs memory in each of the two threads and a loader thread of its own
// (BENCHMARKS.md, "The compiled server").
//
// The bundles sit two folders below the project root, like every file in src/<folder>/, so
// the paths src/ builds from import.meta.url (openapi/plants.yaml, the thread's entry, the
// docs page's script) resolve the same from either place.
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildApi } from "./build-api.mjs";

// Paths below are the project's, wherever this is run from.
process.chdir(fileURLToPath(new URL("..", import.meta.url)));

// CommonJS packages bundled into an ES module call `require`: the module's own.
const requireBanner = {
  js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
};

await buildApi();
const target = "dist/server";
// Built beside the old build, then swapped in: a server running from the old one (which may
// still load a chunk or start its write thread) never finds the folder half written.
const fresh = `${target}.new-${process.pid}`;
const old = `${target}.old-${process.pid}`;
try {
  mkdirSync(fresh, { recursive: true });
} catch (error) {
  // A checkout that cannot be written (a read-only container image, another user's files):
  // the build made there before (by `npm ci`, through prepare) is what runs.
  if (!existsSync(`${target}/main.mjs`)) {
    process.stderr.write(
      `plantstore: cannot build the server into ${target} (${error.code}) and there is no earlier build; run \`npm run build:server\` where the checkout can be written\n`,
    );
    process.exit(1);
  }
  process.stderr.write(
    `plantstore: cannot write ${target} (${error.code}); running the build made before, which may not match the sources\n`,
  );
  process.exit(0);
}
await build({
  entryPoints: {
    main: "src/main.ts",
    // src/store/sqlite/writer.ts starts ./writer-thread.mjs: here, the compiled thread.
    "writer-thread": "src/store/sqlite/writer-thread.ts",
  },
  outdir: fresh,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  // What src/ imports dynamically (a store engine, jose) becomes a chunk of its own, loaded
  // with its npm packages only when asked for; beside the entries, at the same depth.
  splitting: true,
  chunkNames: "[name]-[hash]",
  // npm packages are bundled too (a start loads one file, not hundreds): but for the SQLite
  // driver's native addon and the docs page's files, which are found on disk.
  external: ["better-sqlite3", "swagger-ui-dist"],
  banner: requireBanner,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  // Stack traces need the mappings only, not the sources (a third of the map's parsing at start).
  sourcesContent: false,
  logLevel: "warning",
});
try {
  renameSync(target, old);
} catch {
  // no earlier build
}
try {
  renameSync(fresh, target);
} catch {
  // Another build (a second `npm start`, a test run) put its own in place first: the same
  // sources, so it stands.
  rmSync(fresh, { recursive: true, force: true });
}
rmSync(old, { recursive: true, force: true });
