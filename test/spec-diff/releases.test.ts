// openapi/releases/ read from a folder of hand-made files: only .yaml files, ordered as
// versions (not as names), each checked against the version inside it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { readReleases } from "../../src/spec-diff/releases.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding `files` (name → text); its URL, as readReleases takes it. */
function folder(files: Record<string, string>): URL {
  const dir = mkdtempSync(join(tmpdir(), "plantstore-releases-"));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return pathToFileURL(`${dir}/`);
}

const release = (version: string) => `openapi: 3.1.0\ninfo:\n  version: ${version}\n`;

describe("the released documents", () => {
  it("when the folder holds releases and other files, then the releases come oldest first by version", () => {
    const directory = folder({
      "1.10.0.yaml": release("1.10.0"),
      "1.2.0.yaml": release("1.2.0"),
      "10.0.0.yaml": release("10.0.0"),
      "README.md": "not a release",
    });

    expect(readReleases(directory)).toEqual([
      { version: "1.2.0", document: { openapi: "3.1.0", info: { version: "1.2.0" } } },
      { version: "1.10.0", document: { openapi: "3.1.0", info: { version: "1.10.0" } } },
      { version: "10.0.0", document: { openapi: "3.1.0", info: { version: "10.0.0" } } },
    ]);
  });

  it("when a file's name is not the version inside it, then it is refused", () => {
    const directory = folder({ "2.0.0.yaml": release("2.0.1") });

    expect(() => readReleases(directory)).toThrow(
      "openapi/releases/2.0.0.yaml has info.version 2.0.1",
    );
  });

  it("when a file has no version, then it is refused", () => {
    const directory = folder({ "2.0.0.yaml": "openapi: 3.1.0\n" });

    expect(() => readReleases(directory)).toThrow(
      "openapi/releases/2.0.0.yaml has info.version undefined",
    );
  });
});
