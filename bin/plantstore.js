#!/usr/bin/env node
// The `plantstore` command (package.json "bin", `npm run plantstore -- …`): the compiled command
// in dist/cli/, built again first when a file it is built from is newer (scripts/build-cli.mjs).
// Compiled, it starts in about a third of the CPU time tsx takes (BENCHMARKS.md, "The compiled
// server").
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const compiled = `${root}dist/cli/cli.mjs`;

/** The newest modification time of the files under `folder`. */
function newest(folder) {
  let latest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      latest = Math.max(latest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
    }
  }
  return latest;
}

let built = -1;
try {
  built = statSync(compiled).mtimeMs;
} catch {
  // never built
}
if (built < Math.max(newest(`${root}src`), newest(`${root}generated`))) {
  const { buildCli } = await import("../scripts/build-cli.mjs");
  const { NoBuildError } = await import("../scripts/bundle.mjs");
  try {
    await buildCli();
  } catch (error) {
    if (!(error instanceof NoBuildError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
await import(compiled);
