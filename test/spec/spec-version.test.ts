// The semver gate: openapi/plants.yaml against the last released document
// (openapi/releases/), and info.version raised as much as the changes need.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { documentPath } from "../../src/openapi/document.ts";
import { changelogPath, renderApiChangelog } from "../../src/spec-diff/api-changelog.ts";
import { diffDocuments } from "../../src/spec-diff/diff.ts";
import { type Release, readReleases } from "../../src/spec-diff/releases.ts";
import { versionProblem } from "../../src/spec-diff/semver.ts";

type Doc = {
  info: { version: string };
  components: { schemas: Record<string, { properties: Record<string, unknown> }> };
};

const current = parse(readFileSync(documentPath, "utf8")) as Doc;
const releases = readReleases();
const last = releases.at(-1);

function problemAgainstLast(document: Doc): string | undefined {
  if (last === undefined) throw new Error("openapi/releases/ holds no released document");
  return versionProblem(
    last.version,
    document.info.version,
    diffDocuments(last.document, document),
  );
}

describe("info.version against the last released document", () => {
  it("when openapi/plants.yaml is compared with the last release, then info.version is raised as its changes need (npm run spec:diff lists them)", () => {
    expect(problemAgainstLast(current)).toBeUndefined();
  });

  it("when a response member is removed and info.version is not raised, then the gate fails naming the change and the version it needs", () => {
    const edited = structuredClone(current);
    delete edited.components.schemas["Plant"]?.properties["tag"];
    edited.info.version = last?.version ?? "";
    const problem = problemAgainstLast(edited);
    expect(problem).toMatch(/needs a major release: raise info\.version to \d+\.0\.0 or later/);
    expect(problem).toContain(
      "`getPlant` 200: member `tag` removed — breaking for clients that read it (needs a major release)",
    );
  });

  it("when the same edit raises the major version, then the gate passes", () => {
    const edited = structuredClone(current);
    delete edited.components.schemas["Plant"]?.properties["tag"];
    const [major] = (last?.version ?? "0").split(".");
    edited.info.version = `${Number(major) + 1}.0.0`;
    expect(problemAgainstLast(edited)).toBeUndefined();
  });

  it("when the released documents are read in order, then each raised its version as its changes needed", () => {
    expect(releases.length).toBeGreaterThan(0);
    expect(sequenceProblems(releases)).toEqual([]);
  });
});

/** For each release after the first, why its version is not raised as its changes need. */
function sequenceProblems(sequence: readonly Release[]): string[] {
  return sequence.slice(1).flatMap((release, index) => {
    const previous = sequence[index] as Release;
    const changes = diffDocuments(previous.document, release.document);
    return versionProblem(previous.version, release.version, changes) ?? [];
  });
}

describe("a pair of released documents (test/spec/release-pair/)", () => {
  const pair = readReleases(new URL("./release-pair/", import.meta.url));
  const [older, newer] = pair as [Release, Release];
  const renamed = (release: Release, version: string): Release => {
    const document = structuredClone(release.document) as Doc;
    document.info.version = version;
    return { version, document };
  };

  it("when the second adds an operation and a member as a minor release, then the sequence passes, and what it changed is named", () => {
    expect(pair.map((release) => release.version)).toEqual(["1.0.0", "1.1.0"]);
    expect(sequenceProblems(pair)).toEqual([]);
    expect(diffDocuments(older.document, newer.document).map((change) => change.sentence)).toEqual([
      "`getThing` 200: member `tag` added — compatible",
      "`listThings`: operation added — compatible",
    ]);
  });

  it("when the same second document is released as a patch, then the sequence fails naming the minor changes", () => {
    const [problem] = sequenceProblems([older, renamed(newer, "1.0.1")]);
    expect(problem).toMatch(/needs a minor release: raise info\.version to 1\.1\.0 or later/);
    expect(problem).toContain("`listThings`: operation added — compatible (needs a minor release)");
  });

  it("when the second also removes a response member, then only a major release passes", () => {
    const breaking = renamed(newer, "1.1.0");
    delete (breaking.document as Doc).components.schemas["Thing"]?.properties["name"];
    expect(sequenceProblems([older, breaking])).toEqual([
      expect.stringMatching(/needs a major release: raise info\.version to 2\.0\.0 or later/),
    ]);
    expect(sequenceProblems([older, renamed(breaking, "2.0.0")])).toEqual([]);
  });
});

describe("generated/api-changelog.md", () => {
  it("when it is compared with the released documents and the YAML, then it is current (else run npm run generate)", () => {
    expect(readFileSync(changelogPath, "utf8")).toBe(renderApiChangelog());
  });

  it("when it is read, then every released version has its section, 1.1.0 included", () => {
    const text = readFileSync(changelogPath, "utf8");
    expect(releases.map((release) => release.version)).toContain("1.1.0");
    for (const { version } of releases) expect(text).toContain(`\n## ${version}\n`);
  });
});

describe("versionProblem", () => {
  const change = (bump: "major" | "minor" | "patch") =>
    ({
      severity: "compatible",
      bump,
      operation: "x",
      sentence: `a ${bump} change`,
      pointer: "/",
    }) as const;

  it("when only descriptions changed, then a patch raise is enough", () => {
    expect(versionProblem("1.2.3", "1.2.4", [change("patch")])).toBeUndefined();
    expect(versionProblem("1.2.3", "1.2.3", [change("patch")])).toMatch(
      /raise info.version to 1\.2\.4/,
    );
  });

  it("when an addition is made, then a minor raise is needed and a patch is not enough", () => {
    expect(versionProblem("1.2.3", "1.3.0", [change("minor"), change("patch")])).toBeUndefined();
    expect(versionProblem("1.2.3", "1.2.4", [change("minor")])).toMatch(
      /needs a minor release: raise info.version to 1\.3\.0/,
    );
  });

  it("when the version goes down or is not MAJOR.MINOR.PATCH, then it is refused", () => {
    expect(versionProblem("1.2.3", "1.2.2", [])).toMatch(/lower than/);
    expect(() => versionProblem("1.2.3", "v2", [])).toThrow(/MAJOR\.MINOR\.PATCH/);
  });
});
