// Bundles entries of src/ with our own code and npm packages into one folder of dist/ with
// esbuild: the server (scripts/build-server.mjs) and the command line (scripts/build-cli.mjs).
//
// The bundles sit two folders below the project root, like every file in src/<folder>/, so
// the paths src/ builds from import.meta.url (openapi/plants.yaml, the write thread's entry, the
// docs page's script) resolve the same from either place.
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

// CommonJS packages bundled into an ES module call `require`: the module's own.
const requireBanner = {
  js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
};

/** Thrown when the folder cannot be written and holds no earlier build to run instead. */
export class NoBuildError extends Error {}

/**
 * Builds `entryPoints` (name → source, relative to the project) into `target` (relative to the
 * project); `entry` names the file whose presence says an earlier build is there. False when
 * the folder cannot be written and the earlier build stands (a warning on stderr says so).
 */
export async function bundle(target, entryPoints, entry, rebuildCommand) {
  const folder = `${root}${target}`;
  // Built beside the old build, then swapped in: a process running from the old one (which may
  // still load a chunk or start its write thread) never finds the folder half written.
  const fresh = `${folder}.new-${process.pid}`;
  const old = `${folder}.old-${process.pid}`;
  try {
    mkdirSync(fresh, { recursive: true });
  } catch (error) {
    // A checkout that cannot be written (a read-only container image, another user's files):
    // the build made there before (by `npm ci`, through prepare) is what runs.
    if (!existsSync(`${folder}/${entry}`)) {
      throw new NoBuildError(
        `plantstore: cannot build into ${target} (${error.code}) and there is no earlier build; run \`${rebuildCommand}\` where the checkout can be written`,
      );
    }
    process.stderr.write(
      `plantstore: cannot write ${target} (${error.code}); running the build made before, which may not match the sources\n`,
    );
    return false;
  }
  await build({
    absWorkingDir: root,
    entryPoints,
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
    renameSync(folder, old);
  } catch {
    // no earlier build
  }
  try {
    renameSync(fresh, folder);
  } catch {
    // Another build (a second `npm start`, a test run) put its own in place first: the same
    // sources, so it stands.
    rmSync(fresh, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  return true;
}
