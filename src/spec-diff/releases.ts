// The released documents: a committed copy of each, openapi/releases/<info.version>.yaml, so a
// fresh clone (CI checks out no tags, often no history) has the baseline without git.
import { readdirSync, readFileSync } from "node:fs";
import { parseYaml } from "../openapi/document.ts";
import { compareVersions, parseVersion } from "./semver.ts";

export const releasesDirectory = new URL("../../openapi/releases/", import.meta.url);

export interface Release {
  version: string;
  document: unknown;
}

/** Every released document, oldest first; each file's name is its own `info.version`. */
export function readReleases(directory: URL = releasesDirectory): Release[] {
  const releases = readdirSync(directory)
    .filter((name) => name.endsWith(".yaml"))
    .map((name) => {
      const version = name.slice(0, -".yaml".length);
      const document = parseYaml(readFileSync(new URL(name, directory), "utf8")) as {
        info?: { version?: unknown };
      };
      if (document.info?.version !== version) {
        throw new Error(
          `openapi/releases/${name} has info.version ${String(document.info?.version)}`,
        );
      }
      return { version, document, sortKey: parseVersion(version) };
    })
    .sort((a, b) => compareVersions(a.sortKey, b.sortKey));
  return releases.map(({ version, document }) => ({ version, document }));
}
