// Which code `plantstore` runs: its build in dist/cli/ while that is newer than every source,
// else a build made first, so an edit to src/ reaches the command at once. Run in a copy of the
// checkout's layout (src/, generated/, openapi/ and node_modules/ linked; bin/ and the build
// scripts copied, so the build lands in the copy), whose first build only says that it ran.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/server-process.ts";

const root = mkdtempSync(join(tmpdir(), "plantstore-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
for (const [folder, files] of [
  ["bin", ["plantstore.js"]],
  ["scripts", ["build-cli.mjs", "bundle.mjs"]],
] as const) {
  mkdirSync(join(root, folder));
  for (const file of files) copyFileSync(join(REPO_ROOT, folder, file), join(root, folder, file));
}
for (const folder of ["src", "generated", "node_modules", "openapi"]) {
  symlinkSync(join(REPO_ROOT, folder), join(root, folder));
}
mkdirSync(join(root, "dist", "cli"), { recursive: true });
const compiled = join(root, "dist", "cli", "cli.mjs");
writeFileSync(compiled, 'process.stdout.write("the build ran\\n");\n');

const run = (): string =>
  execFileSync(process.execPath, [join(root, "bin", "plantstore.js"), "--help"], {
    encoding: "utf8",
    env: { PATH: process.env["PATH"] ?? "" },
  });

describe("the plantstore command's code", () => {
  it("when its build is newer than every source, then the build runs as it is", () => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(compiled, later, later);

    expect(run()).toBe("the build ran\n");
  });

  it("when a source is newer than its build, then it is built again from the sources and that runs", () => {
    utimesSync(compiled, new Date(0), new Date(0));

    expect(run()).toMatch(/^usage: plantstore COMMAND/);
    expect(readFileSync(compiled, "utf8")).not.toContain("the build ran");
  });
});
