// The API changelog's text from hand-made changes: a section per version, newest first, the
// headings by severity, wording changes in one line, and Markdown in a sentence made inert.
import { describe, expect, it } from "vitest";
import { changelogVersions } from "../../src/spec-diff/api-changelog.ts";
import { changelog, section } from "../../src/spec-diff/changelog.ts";
import type { Bump, Severity } from "../../src/spec-diff/classify.ts";
import type { Change } from "../../src/spec-diff/diff.ts";

function change(severity: Severity, bump: Bump, operation: string, sentence: string): Change {
  return { severity, bump, operation, sentence, pointer: "/paths" };
}

describe("the API changelog", () => {
  it("when a version has changes of each kind, then each heading lists its own, in order, and wording names the operations once", () => {
    const changes = [
      change("compatible", "minor", "listPlants", "`listPlants` added"),
      change("compatible", "patch", "getPlant", "`getPlant`: description changed"),
      change("breaking", "major", "deletePlant", "`deletePlant` removed"),
      change("possibly breaking", "minor", "getPlant", "`getPlant` 200 `status`: value added"),
      change("compatible", "patch", "info", "`info`: description changed"),
      change("compatible", "patch", "getPlant", "`getPlant`: example changed"),
      change("breaking", "major", "getPlant", "`getPlant` 404 removed"),
    ];

    expect(section("1.3.0", "1.2.0", changes)).toBe(
      [
        "## 1.3.0\n\nChanges since 1.2.0.\n",
        "### Breaking\n\n- `deletePlant` removed\n- `getPlant` 404 removed\n",
        "### Possibly breaking\n\n- `getPlant` 200 `status`: value added\n",
        "### Compatible\n\n- `listPlants` added\n",
        "### Descriptions\n\nDescriptions or examples changed: `getPlant`, `info`.\n",
      ].join("\n"),
    );
  });

  it("when a version has only additions, then there is no other heading and no wording line", () => {
    const changes = [change("compatible", "minor", "listPlants", "`listPlants` added")];

    expect(section("1.3.0", "1.2.0", changes)).toBe(
      "## 1.3.0\n\nChanges since 1.2.0.\n\n### Compatible\n\n- `listPlants` added\n",
    );
  });

  it("when a version changes only wording, then only the wording line follows its heading", () => {
    const changes = [change("compatible", "patch", "getPlant", "`getPlant`: summary changed")];

    expect(section("1.2.1", "1.2.0", changes)).toBe(
      "## 1.2.1\n\nChanges since 1.2.0.\n\n### Descriptions\n\nDescriptions or examples changed: `getPlant`.\n",
    );
  });

  it("when a version changes nothing, then its section says so", () => {
    expect(section("1.2.1", "1.2.0", [])).toBe(
      "## 1.2.1\n\nChanges since 1.2.0.\n\nNo change to the document.\n",
    );
  });

  it("when a sentence holds Markdown outside its code spans, then that is escaped and the code spans are kept", () => {
    const sentence = "`a_<b>*[c]` member <x> *y* _z_ [w] `d_e` end_";
    const [, items] = section("2.0.0", "1.0.0", [
      change("compatible", "minor", "getPlant", sentence),
    ]).split("### Compatible\n\n");

    expect(items).toBe("- `a_<b>*[c]` member \\<x\\> \\*y\\* \\_z\\_ \\[w\\] `d_e` end\\_\n");
  });

  it("when there is one version, then the changelog is its title and that version as the first", () => {
    expect(changelog("Plant Store", [{ version: "1.0.0", document: {} }])).toBe(
      "# Plant Store: API changelog\n\n## 1.0.0\n\nThe first released version.\n",
    );
  });

  it("when there are several versions, then each is diffed against the one before it, newest first", () => {
    // Small documents: a diff of the whole document costs a fraction of a second.
    const document = (version: string, paths: Record<string, unknown>) => ({
      openapi: "3.1.0",
      info: { title: "T", version },
      paths,
    });
    const listA = { get: { operationId: "listA", responses: { "200": { description: "ok" } } } };

    expect(
      changelog("T", [
        { version: "1.0.0", document: document("1.0.0", {}) },
        { version: "1.1.0", document: document("1.1.0", { "/a": listA }) },
        { version: "1.1.1", document: document("1.1.1", { "/a": listA }) },
      ]),
    ).toBe(
      [
        "# T: API changelog\n",
        "## 1.1.1\n\nChanges since 1.1.0.\n\nNo change to the document.\n",
        "## 1.1.0\n\nChanges since 1.0.0.\n\n### Compatible\n\n- `listA`: operation added — compatible\n",
        "## 1.0.0\n\nThe first released version.\n",
      ].join("\n"),
    );
  });

  it("when the working version is newer than every release, then it comes last; else the releases alone", () => {
    // Three, so that the last is not also the second.
    const releases = [
      { version: "1.2.0", document: "a" },
      { version: "1.9.0", document: "b" },
      { version: "1.10.0", document: "c" },
    ];
    const working = (version: string) => ({ version, document: "w" });

    expect(changelogVersions(working("1.10.1"), releases)).toEqual([
      ...releases,
      working("1.10.1"),
    ]);
    expect(changelogVersions(working("1.10.0"), releases)).toEqual(releases);
    expect(changelogVersions(working("1.9.0"), releases)).toEqual(releases);
    expect(changelogVersions(working("0.1.0"), [])).toEqual([working("0.1.0")]);
  });
});
