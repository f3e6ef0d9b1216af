// The version rule on its own, with hand-made changes: parsing, ordering, the bump a set of
// changes needs and the message when info.version is not raised enough.
import { describe, expect, it } from "vitest";
import type { Bump, Severity } from "../../src/spec-diff/classify.ts";
import type { Change } from "../../src/spec-diff/diff.ts";
import {
  compareVersions,
  neededBump,
  nextVersion,
  parseVersion,
  VersionError,
  versionProblem,
} from "../../src/spec-diff/semver.ts";

function change(bump: Bump, sentence: string, severity: Severity = "compatible"): Change {
  return { severity, bump, operation: "getPlant", sentence, pointer: "/paths" };
}

describe("the version rule", () => {
  it("when a version is MAJOR.MINOR.PATCH, then it is read as three numbers", () => {
    expect(parseVersion("1.2.3")).toEqual([1, 2, 3]);
    expect(parseVersion("0.0.0")).toEqual([0, 0, 0]);
    expect(parseVersion("10.205.3071")).toEqual([10, 205, 3071]);
  });

  it.each([
    "",
    "1.2",
    "v1.2.3",
    "1.2.3-beta",
    "1.2.3.4",
    "01.2.3",
    "1.02.3",
    "1.2.03",
    "1.2.x",
    "1.1x.3",
    "1.2.3x",
    " 1.2.3",
  ])("when a version is %j, then it is refused", (text) => {
    expect(() => parseVersion(text)).toThrow(VersionError);
    expect(() => parseVersion(text)).toThrow(
      `info.version ${JSON.stringify(text)} is not MAJOR.MINOR.PATCH`,
    );
  });

  it("when versions are compared, then major counts before minor before patch", () => {
    expect(compareVersions([1, 2, 3], [1, 2, 3])).toBe(0);
    expect(Math.sign(compareVersions([2, 0, 0], [1, 9, 9]))).toBe(1);
    expect(Math.sign(compareVersions([1, 9, 9], [2, 0, 0]))).toBe(-1);
    expect(Math.sign(compareVersions([1, 3, 0], [1, 2, 9]))).toBe(1);
    expect(Math.sign(compareVersions([1, 2, 9], [1, 3, 0]))).toBe(-1);
    expect(Math.sign(compareVersions([1, 2, 4], [1, 2, 3]))).toBe(1);
    expect(Math.sign(compareVersions([1, 2, 3], [1, 2, 4]))).toBe(-1);
  });

  it("when changes need different bumps, then the largest is needed, whatever the order", () => {
    expect(neededBump([])).toBeUndefined();
    expect(neededBump([change("patch", "a")])).toBe("patch");
    expect(neededBump([change("major", "a"), change("patch", "b")])).toBe("major");
    expect(neededBump([change("patch", "a"), change("minor", "b"), change("patch", "c")])).toBe(
      "minor",
    );
    expect(neededBump([change("minor", "a"), change("major", "b"), change("minor", "c")])).toBe(
      "major",
    );
  });

  it("when a bump is applied, then the lower parts start again at zero", () => {
    expect(nextVersion([1, 2, 3], "major")).toEqual([2, 0, 0]);
    expect(nextVersion([1, 2, 3], "minor")).toEqual([1, 3, 0]);
    expect(nextVersion([1, 2, 3], "patch")).toEqual([1, 2, 4]);
  });

  it("when the version is lower than the baseline's, then that is the problem, changes or not", () => {
    expect(versionProblem("1.2.0", "1.1.9", [])).toBe(
      "info.version 1.1.9 is lower than the baseline's 1.2.0",
    );
  });

  it("when the version is raised to exactly the least it needs, or beyond, then there is no problem", () => {
    const changes = [change("minor", "a"), change("patch", "b")];
    expect(versionProblem("1.2.3", "1.3.0", changes)).toBeUndefined();
    expect(versionProblem("1.2.3", "2.0.0", changes)).toBeUndefined();
    expect(versionProblem("1.2.3", "1.2.3", [])).toBeUndefined();
  });

  it("when the version is not raised enough, then the message names the least version and each change that needs it", () => {
    const changes = [
      change("major", "`getPlant` removed", "breaking"),
      change("minor", "`listPlants` added"),
      change("major", "`deletePlant` 204 removed", "breaking"),
    ];

    expect(versionProblem("1.2.3", "1.3.0", changes)).toBe(
      [
        "info.version is 1.3.0, but the document changed against 1.2.3 in a way that needs a major release: raise info.version to 2.0.0 or later.",
        "  - `getPlant` removed (needs a major release)",
        "  - `deletePlant` 204 removed (needs a major release)",
      ].join("\n"),
    );
  });
});
