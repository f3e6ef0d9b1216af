// Compiles the server for `npm start`: src/main.ts and the SQLite write thread, each bundled
// into JavaScript under dist/server/ (scripts/bundle.mjs). Run on every `npm start` (and once per
// test run), so what runs is always what the sources and generated/ say now; it takes a
// fraction of a second. Without it the server would run through tsx, which costs memory in each
// of the two threads and a loader thread of its own (BENCHMARKS.md, "The compiled server").
import { buildApi } from "./build-api.mjs";
import { bundle, NoBuildError } from "./bundle.mjs";

await buildApi();
try {
  await bundle(
    "dist/server",
    {
      main: "src/main.ts",
      // src/store/sqlite/writer.ts starts ./writer-thread.mjs: here, the compiled thread.
      "writer-thread": "src/store/sqlite/writer-thread.ts",
    },
    "main.mjs",
    "npm run build:server",
  );
} catch (error) {
  if (!(error instanceof NoBuildError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
