// The API changelog: every released document in openapi/releases/, then openapi/plants.yaml
// when its version is newer (the one a server of this checkout runs). `npm run generate` writes
// it to generated/api-changelog.md, so a server and `npm run bundle` only read a file (a diff
// per release costs a fraction of a second of CPU), and a test fails when it is stale.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { documentPath, parseYaml } from "../openapi/document.ts";
import { changelog } from "./changelog.ts";
import { type Release, readReleases } from "./releases.ts";
import { compareVersions, parseVersion } from "./semver.ts";

export const changelogPath = fileURLToPath(
  new URL("../../generated/api-changelog.md", import.meta.url),
);

export function renderApiChangelog(): string {
  const current = parseYaml(readFileSync(documentPath, "utf8")) as {
    info: { title: string; version: string };
  };
  const working = { version: current.info.version, document: current };
  return changelog(current.info.title, changelogVersions(working, readReleases()));
}

/** The releases, oldest first, then the working document when its version is newer than all. */
export function changelogVersions(working: Release, releases: readonly Release[]): Release[] {
  const last = releases.at(-1);
  const unreleased =
    last === undefined ||
    compareVersions(parseVersion(working.version), parseVersion(last.version)) > 0;
  return unreleased ? [...releases, working] : [...releases];
}

let read: string | undefined;

/** generated/api-changelog.md, read on first use. */
export function apiChangelog(): string {
  read ??= readFileSync(changelogPath, "utf8");
  return read;
}
