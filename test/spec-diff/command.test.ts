// `npm run spec:diff` as a user and CI run it: its options, its exit codes (0 no breaking
// change, 1 a breaking one, 2 a usage mistake or a refused document), --json, what an
// unreleased version holds, and a --ref that is never handed to git as an option.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { documentPath } from "../../src/openapi/document.ts";
import { resolveRef, specDiff } from "../../src/spec-diff/command.ts";
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

  it("when --ref names a commit, then the baseline is openapi/plants.yaml there, against the working one", () => {
    const result = run("--ref", "HEAD");

    expect(result.code, result.err).toBeLessThan(2);
    expect(result.out).toMatch(
      new RegExp(
        `^openapi/plants\\.yaml \\(${current.info.version.replaceAll(".", "\\.")}\\) against HEAD:openapi/plants\\.yaml \\(\\d+\\.\\d+\\.\\d+\\):\n`,
      ),
    );
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

  it("when a document has a $ref that names nothing in it, then it says so and exits 2", () => {
    const dangling = join(dir, "dangling.yaml");
    writeFileSync(dangling, withExternalRef("#/components/schemas/Missing"));

    expect(run("--base", base, "--head", dangling)).toEqual({
      code: 2,
      out: "",
      err: `spec:diff: ${dangling}: the document has a $ref to "#/components/schemas/Missing", which names nothing in it\n`,
    });
  });

  it("when a --ref starts with a dash or holds a space or a control character, then it never reaches git", () => {
    for (const ref of [
      "",
      "-",
      "--output=x",
      "-HEAD",
      "HEAD x",
      "HEAD\tx",
      "HEAD\nx",
      "HEAD\u0007",
    ]) {
      expect(() => resolveRef(ref), JSON.stringify(ref)).toThrow(
        `--ref takes a git commit, branch or tag, not ${JSON.stringify(ref)}`,
      );
    }
  });

  it("when a --ref only holds a dash after its start, then git is asked, and a commit it names is the answer", () => {
    expect(() => resolveRef("no-such-branch-")).toThrow(
      '--ref "no-such-branch-" names no commit of this repository',
    );
    expect(resolveRef("HEAD")).toMatch(/^[0-9a-f]{40,64}$/);
  });

  it("when an argument is not an option, then it is a usage mistake", () => {
    const result = run("stray");

    expect(result).toMatchObject({ code: 2, out: "" });
    expect(result.err).toMatch(/^spec:diff: Unexpected argument 'stray'/);
  });

  it("when the head cannot be read or is not a document, then it says which and exits 2", () => {
    const missing = join(dir, "missing.yaml");
    const words = join(dir, "words.yaml");
    writeFileSync(words, "just some words\n");

    const unread = run("--head", missing);
    const scalar = run("--head", words);

    expect(unread).toMatchObject({ code: 2, out: "" });
    expect(unread.err).toMatch(
      new RegExp(`^spec:diff: cannot read ${missing.replaceAll(".", "\\.")}: ENOENT`),
    );
    expect(scalar).toEqual({
      code: 2,
      out: "",
      err: `spec:diff: ${words} is not an OpenAPI document\n`,
    });
  });
});

// The report's lines, from small documents (a diff of the whole document costs a fraction of a
// second); a baseline at the last release's version stands for that release.
describe("npm run spec:diff's report", () => {
  const operation = (operationId: string) => ({
    get: { operationId, responses: { "200": { description: "ok" } } },
  });
  const removed = "  breaking: `getA`: operation removed — breaking for clients that call it";
  const added = "  compatible: `getB`: operation added — compatible";
  const keeps = "`npm run spec:release` keeps it as released.";

  /** A small document with these operations (by path), written to a file; its path. */
  function small(name: string, version: string, operations: Record<string, string>): string {
    const paths = Object.fromEntries(
      Object.entries(operations).map(([path, id]) => [path, operation(id)]),
    );
    const path = join(dir, name);
    writeFileSync(path, stringify({ openapi: "3.1.0", info: { title: "T", version }, paths }));
    return path;
  }

  const released = small("small-released.yaml", lastRelease, { "/a": "getA" });

  it("when the head is at the last release's version and unchanged, then it says only that", () => {
    const head = small("small-same.yaml", lastRelease, { "/a": "getA" });

    expect(run("--base", released, "--head", head)).toEqual({
      code: 0,
      out: `${head} (${lastRelease}) against ${released} (${lastRelease}):\n  no change\ninfo.version is raised enough.\n`,
      err: "",
    });
  });

  it("when the head is an unreleased version with no change yet, then it says it holds none", () => {
    const head = small("small-ahead.yaml", "99.0.0", { "/a": "getA" });

    expect(run("--base", released, "--head", head)).toEqual({
      code: 0,
      out: [
        `${head} (99.0.0) against ${released} (${lastRelease}):`,
        "  no change",
        `99.0.0 is not released yet (the last release is ${lastRelease}): it holds no change yet. ${keeps}`,
        "info.version is raised enough.\n",
      ].join("\n"),
      err: "",
    });
  });

  it("when the unreleased version holds changes, then it counts them by severity", () => {
    const head = small("small-two.yaml", "99.0.0", { "/b": "getB" });

    expect(run("--base", released, "--head", head)).toEqual({
      code: 1,
      out: [
        `${head} (99.0.0) against ${released} (${lastRelease}):`,
        removed,
        added,
        `99.0.0 is not released yet (the last release is ${lastRelease}): it holds the 2 changes above (1 breaking, 1 compatible). ${keeps}`,
        "info.version is raised enough.\n",
      ].join("\n"),
      err: "",
    });
  });

  it("when the unreleased version holds one change, then it says so in the singular", () => {
    const head = small("small-one.yaml", "99.0.0", { "/a": "getA", "/b": "getB" });

    expect(run("--base", released, "--head", head).out).toContain(
      `99.0.0 is not released yet (the last release is ${lastRelease}): it holds the 1 change above (1 compatible). ${keeps}`,
    );
  });

  it("when the baseline is not the last release, then it points to a diff against that for what the version holds", () => {
    const older = small("small-older.yaml", "0.9.0", { "/a": "getA" });
    const head = small("small-ahead.yaml", "99.0.0", { "/a": "getA" });

    expect(run("--base", older, "--head", head).out).toBe(
      [
        `${head} (99.0.0) against ${older} (0.9.0):`,
        "  no change",
        `99.0.0 is not released yet (the last release is ${lastRelease}): compare it with the last release (npm run spec:diff) for what it holds. ${keeps}`,
        "info.version is raised enough.\n",
      ].join("\n"),
    );
  });
});
