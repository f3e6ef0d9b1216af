// npm's `prepare` (run by `npm ci` and `npm install` in this checkout): builds the server into
// dist/server/ and the client for `plantstore/client`. Without the dev tools
// (`npm ci --omit=dev`, a server-only install) there is no TypeScript to build the client
// with, and the server does not need it: say so and go on.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

// The server as `npm start` runs it (esbuild is a dependency, so this works without the dev
// tools too); `npm start` builds it again, and runs this one where it cannot write.
execFileSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "inherit" });

const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = require.resolve("typescript/bin/tsc");
} catch {
  console.error("plantstore: typescript is not installed; plantstore/client is not built");
  process.exit(0);
}
execFileSync(process.execPath, [tsc, "-p", "tsconfig.client.json"], { stdio: "inherit" });
