// Stoplight Prism as a process of its own (`prism mock` or `prism proxy` of openapi/plants.yaml),
// for the suites that put it in front of a server or mock the document with it.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { REPO_ROOT } from "./server-process.ts";

const PRISM = createRequire(import.meta.url).resolve("@stoplight/prism-cli/dist/index.js");

export interface PrismProcess {
  /** Where it listens, as it says once ready. */
  url: string;
  /** Everything it has printed so far (its violations among them). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts Prism with `args` (after the program) and resolves once it listens. */
export async function startPrism(args: readonly string[]): Promise<PrismProcess> {
  const prism = spawn(process.execPath, [PRISM, ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const listening = /Prism is listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (listening?.[1] !== undefined) resolve(listening[1]);
    };
    prism.stdout?.on("data", onData);
    prism.stderr?.on("data", onData);
    prism.once("exit", (code) => reject(new Error(`prism exited (${code}): ${output}`)));
  });
  return {
    url,
    output: () => output,
    async stop() {
      if (prism.exitCode !== null) return;
      const exited = new Promise((resolve) => prism.once("exit", resolve));
      prism.kill("SIGTERM");
      await exited;
    },
  };
}
