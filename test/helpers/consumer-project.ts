// A fresh project with the client installed as a user installs it: the tarball of
// `npm run pack:client` (built from this checkout), by `npm install --offline --ignore-scripts`.
// Offline, the dependencies the package declares come as tarballs packed from this checkout's
// node_modules, standing in for the registry; one it needs and does not declare is missing, so
// the consumer's code or its type check fails.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { runToExit } from "./run-process.ts";
import { REPO_ROOT } from "./server-process.ts";

interface Manifest {
  dependencies?: Record<string, string>;
}

const manifestAt = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;

/** Where `name` is installed for the package in `from`, as Node resolves it. */
function installedDir(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dir === REPO_ROOT || dirname(dir) === dir) throw new Error(`${name} is not installed`);
  }
}

/** The folders of `names` and of everything they depend on, in this checkout's node_modules. */
function dependencyDirs(names: readonly string[]): string[] {
  const found = new Map<string, string>();
  const visit = (name: string, from: string) => {
    if (found.has(name)) return;
    const dir = installedDir(name, from);
    found.set(name, dir);
    for (const dependency of Object.keys(manifestAt(dir).dependencies ?? {}))
      visit(dependency, dir);
  };
  for (const name of names) visit(name, REPO_ROOT);
  return [...found.values()];
}

async function run(command: string, args: readonly string[]): Promise<string> {
  const done = await runToExit(command, args, { env: {}, timeoutMs: 120_000 });
  expect(done.code, `${command} ${args.join(" ")}\n${done.stdout}${done.stderr}`).toBe(0);
  return done.stdout;
}

/** The new project's directory (an ES module package); the caller removes it. */
export async function makeConsumerProject(prefix: string): Promise<string> {
  const project = mkdtempSync(join(tmpdir(), prefix));
  const packages = join(project, "packages");
  mkdirSync(packages);
  const client = (
    await run(process.execPath, ["scripts/pack-client.mjs", "--out", packages])
  ).trim();
  const declared = Object.keys(manifestAt(join(packages, "plantstore-client")).dependencies ?? {});
  const packed = JSON.parse(
    await run("npm", [
      "pack",
      "--json",
      "--ignore-scripts",
      "--pack-destination",
      packages,
      ...dependencyDirs(declared),
    ]),
  ) as { filename: string }[];
  writeFileSync(join(project, "package.json"), '{ "type": "module", "private": true }\n');
  const tarballs = [client, ...packed.map(({ filename }) => join(packages, filename))];
  await run("npm", [
    "install",
    "--prefix",
    project,
    "--offline",
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
    ...tarballs,
  ]);
  return project;
}
