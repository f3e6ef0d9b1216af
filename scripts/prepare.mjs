// npm's `prepare` (run by `npm ci` and `npm install` in this checkout): builds the server into
// dist/server/ as `npm start` runs it, and the `plantstore` command into dist/cli/ (esbuild is a
// dependency, so this works without the dev tools too); `npm start` builds the server again, and
// runs this one where it cannot write. The client is a package of its own, built and packed by
// `npm run pack:client`.
import { execFileSync } from "node:child_process";

execFileSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "inherit" });
execFileSync(process.execPath, ["scripts/build-cli.mjs"], { stdio: "inherit" });
