// Lists the functions, methods and arrow functions in src/**/*.ts longer than N lines (default
// 80), longest first, as `lines  file:line  name`. A span is the function as written, from its
// first line to its last, so a nested function counts toward its outer function's too.
// Usage: npx tsx scripts/function-lengths.ts [N] [--top K]
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

interface Found {
  lines: number;
  where: string;
  name: string;
}

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : Number.POSITIVE_INFINITY;
const limit = Number(args[0] ?? 80);

/** A readable name: its own, else the variable, property or call it is written in. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText(file);
  }
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText(file)})`;
  return "(anonymous)";
}

function functionsIn(path: string): Found[] {
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: Found[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      const name = nameOf(node as ts.FunctionLikeDeclaration, file);
      if (lines > limit) found.push({ lines, where: `${path}:${start + 1}`, name });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const files = readdirSync("src", { recursive: true, encoding: "utf8" })
  .filter((path) => path.endsWith(".ts") && !path.endsWith(".d.ts"))
  .map((path) => join("src", path))
  .sort();
const all = files.flatMap(functionsIn).sort((a, b) => b.lines - a.lines);
for (const { lines, where, name } of all.slice(0, top)) {
  process.stdout.write(`${String(lines).padStart(5)}  ${where}  ${name}\n`);
}
if (all.length === 0) process.stdout.write(`no function over ${limit} lines\n`);
