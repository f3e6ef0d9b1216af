// The version rule for `info.version`: the change that needs most decides the least raise
// (breaking → major; possibly breaking and additions → minor; wording only → patch).
import type { Bump } from "./classify.ts";
import type { Change } from "./diff.ts";

export type Version = readonly [number, number, number];

/** An `info.version` not written MAJOR.MINOR.PATCH. */
export class VersionError extends Error {}

export function parseVersion(text: string): Version {
  const match = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(text);
  if (match === null)
    throw new VersionError(`info.version ${JSON.stringify(text)} is not MAJOR.MINOR.PATCH`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

export function compareVersions(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

const ORDER: readonly Bump[] = ["patch", "minor", "major"];

export function neededBump(changes: readonly Change[]): Bump | undefined {
  let needed: Bump | undefined;
  for (const { bump } of changes) {
    if (needed === undefined || ORDER.indexOf(bump) > ORDER.indexOf(needed)) needed = bump;
  }
  return needed;
}

/** The least version after `base` that a `bump` allows. */
export function nextVersion(base: Version, bump: Bump): Version {
  if (bump === "major") return [base[0] + 1, 0, 0];
  if (bump === "minor") return [base[0], base[1] + 1, 0];
  return [base[0], base[1], base[2] + 1];
}

/** Undefined when `next` is raised enough for `changes`, else why not, naming each change. */
export function versionProblem(
  base: string,
  next: string,
  changes: readonly Change[],
): string | undefined {
  const from = parseVersion(base);
  const to = parseVersion(next);
  if (compareVersions(to, from) < 0)
    return `info.version ${next} is lower than the baseline's ${base}`;
  const bump = neededBump(changes);
  if (bump === undefined) return undefined;
  const least = nextVersion(from, bump);
  if (compareVersions(to, least) >= 0) return undefined;
  const lines = changes
    .filter((change) => change.bump === bump)
    .map((change) => `  - ${change.sentence} (needs a ${change.bump} release)`);
  return [
    `info.version is ${next}, but the document changed against ${base} in a way that needs a ${bump} release: raise info.version to ${least.join(".")} or later.`,
    ...lines,
  ].join("\n");
}
