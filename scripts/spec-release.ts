// `npm run spec:release`: keeps openapi/plants.yaml as released, a copy at
// openapi/releases/<info.version>.yaml, the baseline of the next `npm run spec:diff` and of the
// semver gate. Refuses a version already released with other content, or one not raised enough.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { DocumentRefused, documentPath, parseYaml } from "../src/openapi/document.ts";
import { diffDocuments } from "../src/spec-diff/diff.ts";
import { readReleases, releasesDirectory } from "../src/spec-diff/releases.ts";
import { versionProblem } from "../src/spec-diff/semver.ts";

const text = readFileSync(documentPath, "utf8");
let document: { info: { version: string } } | undefined;
try {
  document = parseYaml(text) as { info: { version: string } };
} catch (error) {
  if (!(error instanceof DocumentRefused)) throw error;
  process.stderr.write(`openapi/plants.yaml: ${error.message}\n`);
  process.exit(1);
}
const version = document.info.version;
const target = new URL(`${version}.yaml`, releasesDirectory);
const last = readReleases().at(-1);

if (!/^\d+\.\d+\.\d+$/.test(version)) {
  process.stderr.write(`info.version ${JSON.stringify(version)} is not MAJOR.MINOR.PATCH\n`);
  process.exitCode = 1;
} else if (existsSync(target)) {
  const same = readFileSync(target, "utf8") === text;
  process.stderr.write(
    same
      ? `openapi/releases/${version}.yaml is already this document\n`
      : `openapi/releases/${version}.yaml holds another document: raise info.version\n`,
  );
  process.exitCode = same ? 0 : 1;
} else {
  const problem =
    last === undefined
      ? undefined
      : versionProblem(last.version, version, diffDocuments(last.document, document));
  if (problem !== undefined) {
    process.stderr.write(`${problem}\n`);
    process.exitCode = 1;
  } else {
    writeFileSync(target, text);
    process.stdout.write(
      `wrote openapi/releases/${version}.yaml; run npm run generate for the changelog\n`,
    );
  }
}
