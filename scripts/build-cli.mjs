// Compiles the `plantstore` command into dist/cli/ (scripts/bundle.mjs), with the SQLite write
// thread its store starts. bin/plantstore.js runs this build while it is newer than every source,
// and builds it again first when not; `npm ci` (prepare) and a test run build it up front.
import { bundle } from "./bundle.mjs";

/** Builds the command; false when dist/cli cannot be written and the earlier build stands. */
export const buildCli = () =>
  bundle(
    "dist/cli",
    { cli: "src/cli/main.ts", "writer-thread": "src/store/sqlite/writer-thread.ts" },
    "cli.mjs",
    "npm run plantstore -- --help",
  );

if (process.argv[1] === new URL(import.meta.url).pathname) await buildCli();
