// `npm run spec:diff` as a user and CI run it: its options, its exit codes (0 no breaking
// change, 1 a breaking one, 2 a usage mistake or a refused document), --json, what an
// unreleased version holds, and a --ref that is never handed to git as an option.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { documentPath } from "../../src/openapi/document.ts";
import { specDiff } from "../../src/spec-diff/command.ts";
import { readReleases } from "../../src/spec-diff/releases.ts";
import { aliasBomb, withExternalRef } from "../helpers/hostile-yaml.ts";
import { runToExit } from "../helpers/run-process.ts";

type Doc = {
  info: { version: string };
  components: { schemas: Record<string, { properties: Record<string, unknown> }> };
};

const dir = mkdtempSync(join(tmpdir(), "plantstore-spec-diff-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const current = parse(readFileSync(documentPath, "utf8")) as Doc;
const lastRelease = readReleases().at(-1)?.version ?? "";

/** A copy of the working document, edited, written to a file of its own; its path. */
function edited(name: string, edit: (document: Doc) => void): string {
  const document = structuredClone(current);
  edit(document);
  const path = join(dir, name);
  writeFileSync(path, stringify(document));
  return path;
}

function run(...args: string[]): { code: number; out: string; err: string } {
  const output = { out: "", err: "" };
  const code = specDiff(args, {
    out: (text) => {
      output.out += text;
    },
    err: (text) => {
      output.err += text;
    },
  });
  return { code, ...output };
}

const base = edited("base.yaml", () => {});

const propertiesOf = (d: Doc, name: string): Record<string, unknown> => {
  const schema = d.components.schemas[name];
  if (schema === undefined) throw new Error(`no schema ${name}`);
  return schema.properties;
};

describe("npm run spec:diff", () => {
  it("when the head only adds a member, then it exits 0 and names the addition", () => {
    const head = edited("added.yaml", (d) => {
      propertiesOf(d, "WebhookDelivery")["note"] = { type: "string" };
      d.info.version = "99.1.0";
    });

    const result = run("--base", base, "--head", head);

    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(
      "compatible: `listWebhookDeliveries` 200 `[]`: member `note` added",
    );
    expect(result.out).toContain("info.version is raised enough.");
  });

  it("when the head removes a response member, then it exits 1 and --json says breaking and the bump needed", () => {
    const head = edited("removed.yaml", (d) => {
      delete propertiesOf(d, "Plant")["tag"];
    });

    const result = run("--base", base, "--head", head, "--json");

    expect(result.code).toBe(1);
    const report = JSON.parse(result.out) as {
      breaking: boolean;
      neededBump: string;
      versionProblem: string | null;
      changes: { severity: string; sentence: string; pointer: string }[];
    };
    expect(report.breaking).toBe(true);
    expect(report.neededBump).toBe("major");
    expect(report.versionProblem).toMatch(/needs a major release/);
    expect(report.changes).toContainEqual(
      expect.objectContaining({
        severity: "breaking",
        sentence: "`getPlant` 200: member `tag` removed — breaking for clients that read it",
      }),
    );
  });

  it("when the head's version is ahead of the last release, then it says the version is unreleased and what it holds", () => {
    const head = edited("unreleased.yaml", (d) => {
      propertiesOf(d, "WebhookDelivery")["note"] = { type: "string" };
      d.info.version = "99.0.0";
    });

    const result = run("--head", head);

    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(`against openapi/releases/${lastRelease}.yaml (${lastRelease})`);
    expect(result.out).toMatch(
      new RegExp(
        `99\\.0\\.0 is not released yet \\(the last release is ${lastRelease.replaceAll(".", "\\.")}\\): it holds the \\d+ changes? above \\(\\d+ [^)]*\\)`,
      ),
    );
    expect(JSON.parse(run("--head", head, "--json").out)).toMatchObject({
      unreleased: true,
      lastRelease,
    });
  });

  it("when --ref names a commit, then the baseline is openapi/plants.yaml there", () => {
    const result = run("--ref", "HEAD", "--head", base);

    expect(result.code, result.err).toBeLessThan(2);
    expect(result.out).toMatch(/against HEAD:openapi\/plants\.yaml \(\d+\.\d+\.\d+\)/);
  });

  it("when --ref names nothing in the repository, then it is a usage mistake", () => {
    const result = run("--ref", "no-such-branch-anywhere");

    expect(result.code).toBe(2);
    expect(result.err).toContain('--ref "no-such-branch-anywhere" names no commit');
  });

  it("when --ref is an option for git, then it exits 2 and git writes nothing", async () => {
    const target = join(dir, "written-by-git.txt");

    const result = await runToExit(
      process.execPath,
      ["--import", "tsx", "scripts/spec-diff.ts", `--ref=--output=${target}`],
      { env: {} },
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--ref takes a git commit, branch or tag");
    expect(existsSync(target)).toBe(false);
  });

  it("when an option is unknown or --base and --ref are both given, then it is a usage mistake", () => {
    expect(run("--bogus").code).toBe(2);
    const both = run("--base", base, "--ref", "HEAD");
    expect(both.code).toBe(2);
    expect(both.err).toContain("give --base or --ref, not both");
  });

  it("when the baseline is an alias bomb or has an external $ref, then it refuses it (exit 2)", () => {
    const bomb = join(dir, "bomb.yaml");
    writeFileSync(bomb, aliasBomb());
    const outside = join(dir, "outside.yaml");
    writeFileSync(outside, withExternalRef("https://example.com/schema.yaml"));

    const bombed = run("--base", bomb, "--head", base);
    const referenced = run("--base", base, "--head", outside);

    expect(bombed).toMatchObject({ code: 2, out: "" });
    expect(bombed.err).toMatch(/Excessive alias count/);
    expect(referenced.code).toBe(2);
    expect(referenced.err).toMatch(/a \$ref to "https:\/\/example\.com\/schema\.yaml"/);
  });
});
