// The build the conformance suites' spawned servers run, made once. Not test/global-setup.ts: it
// builds again before every rerun, and Stryker reruns the suites once for each mutant.
import { execFileSync } from "node:child_process";

export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "inherit" });
}
