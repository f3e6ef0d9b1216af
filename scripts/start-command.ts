// The node arguments of `npm start` (package.json's start script, after `exec node`), so that
// the bench and the process suites run the server exactly as `npm start` does.
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";

export function startNodeArguments(root: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const at = scripts.start.indexOf("exec node ");
  if (at === -1) throw new Error("package.json's start script no longer ends in `exec node …`");
  const words = scripts.start
    .slice(at + "exec node ".length)
    .trim()
    .split(/\s+/);
  // Options stay as they are; the entry (the last word) becomes absolute, to run from anywhere.
  const entry = words.pop() ?? "";
  return [...words, isAbsolute(entry) ? entry : join(root, entry)];
}
