// A fresh project that depends on this package, as `npm install <path to this checkout>` leaves
// it: the client built again (so it is this checkout's) and linked as node_modules/plantstore.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { runToExit } from "./run-process.ts";
import { REPO_ROOT } from "./server-process.ts";

/** The new project's directory (an ES module package); the caller removes it. */
export async function makeConsumerProject(prefix: string): Promise<string> {
  const built = await runToExit("npm", ["run", "-s", "build:client"], { env: {} });
  expect(built.code, built.stdout + built.stderr).toBe(0);
  const project = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(REPO_ROOT, join(project, "node_modules", "plantstore"), "dir");
  writeFileSync(join(project, "package.json"), '{ "type": "module", "private": true }\n');
  return project;
}
