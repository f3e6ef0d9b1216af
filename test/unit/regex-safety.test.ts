// No pattern in the service can backtrack on what a client sends: every regular expression in
// src/ is a literal (so it can be checked here), and recheck, a ReDoS checker that analyses the
// automaton, finds none whose matching time grows faster than linearly (exponential, or
// polynomial like /0+$/ on a long run of zeros).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { checkSync } from "recheck";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/server-process.ts";

const SRC = join(REPO_ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

interface Found {
  where: string;
  pattern: string;
}

/** Every regex literal in a file, and every place that builds one at run time. */
function patternsIn(path: string): { literals: Found[]; constructed: string[] } {
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const literals: Found[] = [];
  const constructed: string[] = [];
  const where = (node: ts.Node) =>
    `${relative(REPO_ROOT, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) {
      literals.push({ where: where(node), pattern: node.text });
    }
    if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "RegExp"
    ) {
      constructed.push(where(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { literals, constructed };
}

const found = sourceFiles(SRC).map(patternsIn);
const literals = found.flatMap((f) => f.literals);

/** recheck's verdict on a literal written /source/flags. */
function complexity(literal: string): string {
  const end = literal.lastIndexOf("/");
  const result = checkSync(literal.slice(1, end), literal.slice(end + 1));
  return result.status === "vulnerable" ? result.complexity.type : result.status;
}

describe("regular expressions in src/", () => {
  it("when the sources are read, then every pattern is a literal (none is built at run time)", () => {
    expect(found.flatMap((f) => f.constructed)).toEqual([]);
    expect(literals.length).toBeGreaterThan(10);
  });

  it("when each literal is checked, then none can backtrack more than linearly", () => {
    const unsafe = literals
      .map((found) => ({ ...found, complexity: complexity(found.pattern) }))
      .filter((found) => found.complexity !== "safe");
    expect(unsafe).toEqual([]);
  }, 60_000);

  it.each([
    // The media-type pattern that stalled the event loop before authentication.
    [
      "exponential",
      String.raw`/^[!#$%&'*+.^_\`|~0-9A-Za-z-]+\/[!#$%&'*+.^_\`|~0-9A-Za-z-]+(?:[ \t]*;[ \t]*(?:[!#$%&'*+.^_\`|~0-9A-Za-z-]+=(?:[!#$%&'*+.^_\`|~0-9A-Za-z-]+|"(?:[^"\\]|\\.)*"))?)*[ \t]*$/`,
    ],
    // What trimmed trailing zeros off an id literal: seconds for one 60 kB literal.
    ["polynomial", "/0+$/"],
  ])("when a pattern known to be %s is checked, then it is flagged", (expected, pattern) => {
    expect(complexity(pattern)).toBe(expected);
  });
});
