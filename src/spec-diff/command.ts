// `npm run spec:diff [-- --base FILE | --ref GIT-REF] [--head FILE] [--json]`: every change of
// openapi/plants.yaml against a baseline (by default the last released document, see
// releases.ts), classified, whether info.version is raised enough, and whether that version is
// released yet. Exit 0: no breaking change; 1: a breaking change; 2: a usage mistake or a
// document that cannot be read (within parseYaml's bounds).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DocumentRefused, documentPath, parseYaml } from "../openapi/document.ts";
import { type Change, diffDocuments } from "./diff.ts";
import { type Release, readReleases } from "./releases.ts";
import {
  compareVersions,
  neededBump,
  parseVersion,
  VersionError,
  versionProblem,
} from "./semver.ts";

export const SPEC_DIFF_USAGE = `usage: npm run spec:diff -- [--base FILE | --ref GIT-REF] [--head FILE] [--json]
  --base FILE   compare with this OpenAPI file (default: the last release in openapi/releases/)
  --ref REF     compare with openapi/plants.yaml at a git commit, branch or tag
  --head FILE   compare FILE instead of openapi/plants.yaml
  --json        one JSON object on stdout
exit 0: no breaking change; 1: a breaking change; 2: a usage mistake or a document refused`;

const root = fileURLToPath(new URL("../../", import.meta.url));
// The document at a ref is read whole by git: more than this is not an OpenAPI file of ours.
const GIT_SHOW_LIMIT = 16 * 1024 * 1024;

class UsageMistake extends Error {}

type Versioned = { info?: { version?: unknown } };

interface Io {
  out(text: string): void;
  err(text: string): void;
}

interface Compared {
  base: { name: string; version: string };
  head: { name: string; version: string };
  changes: Change[];
  versionProblem: string | undefined;
  /** Where the head's version stands among the releases. */
  release: { last: string | null; headUnreleased: boolean };
}

/** Runs the command; resolves to its exit status. */
export function specDiff(args: readonly string[], io: Io): number {
  let values: { base?: string; ref?: string; head?: string; json?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        base: { type: "string" },
        ref: { type: "string" },
        head: { type: "string" },
        json: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
    if (values.base !== undefined && values.ref !== undefined) {
      throw new UsageMistake("give --base or --ref, not both");
    }
  } catch (error) {
    io.err(`spec:diff: ${(error as Error).message}\n${SPEC_DIFF_USAGE}\n`);
    return 2;
  }
  let compared: Compared;
  try {
    compared = compare(values);
  } catch (error) {
    const known = [UsageMistake, DocumentRefused, VersionError].some(
      (kind) => error instanceof kind,
    );
    if (!known) throw error;
    io.err(`spec:diff: ${(error as Error).message}\n`);
    return 2;
  }
  const breaking = compared.changes.some((change) => change.severity === "breaking");
  io.out(values.json === true ? jsonReport(compared, breaking) : textReport(compared));
  return breaking ? 1 : 0;
}

function compare(values: { base?: string; ref?: string; head?: string }): Compared {
  const releases = readReleases();
  const base = baseline(values, releases);
  const headName = values.head ?? "openapi/plants.yaml";
  const head = readDocument(values.head ?? fileURLToPath(documentPath), headName);
  const changes = diffDocuments(base.document, head);
  const baseVersion = String(base.document.info?.version);
  const headVersion = String(head.info?.version);
  return {
    base: { name: base.name, version: baseVersion },
    head: { name: headName, version: headVersion },
    changes,
    versionProblem: versionProblem(baseVersion, headVersion, changes),
    release: releaseStanding(headVersion, releases),
  };
}

function releaseStanding(version: string, releases: readonly Release[]): Compared["release"] {
  const last = releases.at(-1)?.version ?? null;
  // Releases are sorted: a version above the last is released by none, and one at or below it
  // is not the next release, whether it was released or not.
  const headUnreleased =
    last === null || compareVersions(parseVersion(version), parseVersion(last)) > 0;
  return { last, headUnreleased };
}

function readDocument(path: string, name: string): Versioned {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageMistake(`cannot read ${name}: ${(error as Error).message}`);
  }
  return parseDocument(text, name);
}

function parseDocument(text: string, name: string): Versioned {
  let document: Versioned | null;
  try {
    document = parseYaml(text) as Versioned | null;
  } catch (error) {
    // Whatever the reader throws is a refusal of this document; the name says which.
    throw new DocumentRefused(`${name}: ${(error as Error).message}`);
  }
  if (typeof document !== "object" || document === null) {
    throw new DocumentRefused(`${name} is not an OpenAPI document`);
  }
  return document;
}

function baseline(
  values: { base?: string; ref?: string },
  releases: readonly Release[],
): { name: string; document: Versioned } {
  if (values.base !== undefined) {
    return { name: values.base, document: readDocument(values.base, values.base) };
  }
  if (values.ref !== undefined) {
    const commit = resolveRef(values.ref);
    const name = `${values.ref}:openapi/plants.yaml`;
    let text: string;
    try {
      text = execFileSync("git", ["show", `${commit}:openapi/plants.yaml`], {
        cwd: root,
        encoding: "utf8",
        maxBuffer: GIT_SHOW_LIMIT,
        // Stryker disable next-line ArrayDeclaration: piped by default; only the first line of git's error is kept, and git reads no input
        stdio: ["ignore", "pipe", "ignore"],
      });
    } catch (error) {
      throw new UsageMistake(`cannot read ${name}: ${(error as Error).message.split("\n")[0]}`);
    }
    return { name, document: parseDocument(text, name) };
  }
  const last = releases.at(-1);
  if (last === undefined) throw new UsageMistake("openapi/releases/ holds no released document");
  return { name: `openapi/releases/${last.version}.yaml`, document: last.document as Versioned };
}

/**
 * The commit a `--ref` names, or a usage mistake: an option-looking value is never handed to
 * git (`--ref=--output=FILE` would have `git show` write FILE), and the rest must name a commit
 * (`--end-of-options` keeps git from reading it as an option in any case).
 */
export function resolveRef(ref: string): string {
  if (ref === "" || ref.startsWith("-") || /[\s\p{Cc}]/u.test(ref)) {
    throw new UsageMistake(`--ref takes a git commit, branch or tag, not ${JSON.stringify(ref)}`);
  }
  try {
    return execFileSync(
      "git",
      ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`],
      // Stryker disable next-line ArrayDeclaration: piped by default; --quiet has git write no error, and it reads no input
      { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
    ).trim();
  } catch {
    throw new UsageMistake(`--ref ${JSON.stringify(ref)} names no commit of this repository`);
  }
}

function textReport(compared: Compared): string {
  const { base, head, changes, release } = compared;
  const lines = [`${head.name} (${head.version}) against ${base.name} (${base.version}):`];
  if (changes.length === 0) lines.push("  no change");
  for (const change of changes) lines.push(`  ${change.severity}: ${change.sentence}`);
  if (release.headUnreleased) {
    lines.push(
      `${head.version} is not released yet (the last release is ${release.last ?? "none"}): ${unreleasedSummary(compared)}. \`npm run spec:release\` keeps it as released.`,
    );
  }
  lines.push(compared.versionProblem ?? "info.version is raised enough.");
  return `${lines.join("\n")}\n`;
}

/** What the unreleased version holds so far, so a later edit under the same number shows. */
function unreleasedSummary({ base, changes, release }: Compared): string {
  if (base.version !== release.last) {
    return "compare it with the last release (npm run spec:diff) for what it holds";
  }
  if (changes.length === 0) return "it holds no change yet";
  const count = (severity: Change["severity"]) =>
    changes.filter((change) => change.severity === severity).length;
  const parts = (["breaking", "possibly breaking", "compatible"] as const)
    .map((severity) => [count(severity), severity] as const)
    .filter(([n]) => n > 0)
    .map(([n, severity]) => `${n} ${severity}`);
  return `it holds the ${changes.length} change${changes.length === 1 ? "" : "s"} above (${parts.join(", ")})`;
}

function jsonReport(compared: Compared, breaking: boolean): string {
  const report = {
    base: compared.base,
    head: compared.head,
    lastRelease: compared.release.last,
    unreleased: compared.release.headUnreleased,
    neededBump: neededBump(compared.changes) ?? null,
    versionProblem: compared.versionProblem ?? null,
    breaking,
    changes: compared.changes,
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
