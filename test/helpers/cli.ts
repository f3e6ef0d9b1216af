// Runs the plantstore command line as a user would (bin/plantstore.js), against one database.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "./server-process.ts";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(
  databaseUrl: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(REPO_ROOT, "bin", "plantstore.js"), ...args],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env["PATH"] ?? "", DATABASE_URL: databaseUrl, ...env },
        timeout: 20_000,
        encoding: "utf8",
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
