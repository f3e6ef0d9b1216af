// `npm run spec:diff [-- --base FILE | --ref GIT-REF] [--json]`: every change of
// openapi/plants.yaml against a baseline (by default the last released document, see
// src/spec-diff/releases.ts), classified, and whether info.version is raised enough. Exits 1
// when a change is breaking.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parse } from "yaml";
import { documentPath } from "../src/openapi/document.ts";
import { diffDocuments } from "../src/spec-diff/diff.ts";
import { readReleases } from "../src/spec-diff/releases.ts";
import { neededBump, versionProblem } from "../src/spec-diff/semver.ts";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    ref: { type: "string" },
    head: { type: "string" },
    json: { type: "boolean", default: false },
  },
});

type Versioned = { info?: { version?: unknown } };

function baseline(): { name: string; document: Versioned } {
  if (values.base !== undefined) {
    return { name: values.base, document: parse(readFileSync(values.base, "utf8")) as Versioned };
  }
  if (values.ref !== undefined) {
    const text = execFileSync("git", ["show", `${values.ref}:openapi/plants.yaml`], {
      encoding: "utf8",
    });
    return { name: `${values.ref}:openapi/plants.yaml`, document: parse(text) as Versioned };
  }
  const last = readReleases().at(-1);
  if (last === undefined) throw new Error("openapi/releases/ holds no released document");
  return { name: `openapi/releases/${last.version}.yaml`, document: last.document as Versioned };
}

const base = baseline();
const headPath = values.head ?? documentPath;
const head = parse(readFileSync(headPath, "utf8")) as Versioned;
const changes = diffDocuments(base.document, head);
const baseVersion = String(base.document.info?.version);
const headVersion = String(head.info?.version);
const problem = versionProblem(baseVersion, headVersion, changes);
const breaking = changes.some((change) => change.severity === "breaking");

if (values.json) {
  const report = {
    base: { name: base.name, version: baseVersion },
    head: { version: headVersion },
    neededBump: neededBump(changes) ?? null,
    versionProblem: problem ?? null,
    breaking,
    changes,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  process.stdout.write(
    `${values.head ?? "openapi/plants.yaml"} (${headVersion}) against ${base.name} (${baseVersion}):\n`,
  );
  if (changes.length === 0) process.stdout.write("  no change\n");
  for (const change of changes) process.stdout.write(`  ${change.severity}: ${change.sentence}\n`);
  process.stdout.write(problem === undefined ? "info.version is raised enough.\n" : `${problem}\n`);
}
process.exitCode = breaking ? 1 : 0;
