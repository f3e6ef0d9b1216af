// Marker files saying a suite that may be skipped really ran; .ci/run removes them before the
// tests and fails when one is missing afterwards.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./server-process.ts";

export const TEST_RESULTS = join(REPO_ROOT, "test-results");

export function markRan(suite: "browser" | "prism"): void {
  const folder = join(TEST_RESULTS, "ran");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, suite), `${new Date().toISOString()}\n`);
}
