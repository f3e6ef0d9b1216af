// Marker files saying a suite that may be skipped really ran: test-results/ran/<its test file>,
// or <its test file>#<label> for one of several tests of a file that may each be skipped.
// .ci/run removes them before the tests and fails when one that test/required-runs.txt names
// is missing afterwards, or one it does not name is there.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { expect } from "vitest";
import { REPO_ROOT } from "./repo-root.ts";

export const TEST_RESULTS = join(REPO_ROOT, "test-results");

/** Marks the test file running now (and `label` in it) as having run. */
export function markRan(label?: string): void {
  const file = expect.getState().testPath;
  if (file === undefined) throw new Error("markRan is called from a test file's tests or hooks");
  const marker = join(
    TEST_RESULTS,
    "ran",
    `${relative(REPO_ROOT, file)}${label ? `#${label}` : ""}`,
  );
  mkdirSync(dirname(marker), { recursive: true });
  writeFileSync(marker, `${new Date().toISOString()}\n`);
}
