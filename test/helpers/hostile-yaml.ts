// Documents that attack the commands that read them: a "billion laughs" of YAML aliases, a
// nesting deeper than any schema needs, and $refs to a file or a URL outside the document.
import { readFileSync } from "node:fs";
import { documentPath } from "../../src/openapi/document.ts";

const source = readFileSync(documentPath, "utf8");

/** openapi/plants.yaml with `extra` added at the top level (before `paths:`). */
export function withTopLevel(extra: string): string {
  return source.replace(/^paths:\n/m, `${extra}paths:\n`);
}

/** Nine levels of nine aliases each: 9^9 strings once expanded. */
export function aliasBomb(): string {
  let text = 'x-bomb:\n  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let level = 1; level < 10; level++) {
    const name = String.fromCharCode(97 + level);
    const previous = `*${String.fromCharCode(96 + level)}`;
    text += `  ${name}: &${name} [${Array(9).fill(previous).join(",")}]\n`;
  }
  return withTopLevel(text);
}

/** A flow sequence nested `depth` deep. */
export function deepNesting(depth: number): string {
  return withTopLevel(`x-deep: ${"[".repeat(depth)}${"]".repeat(depth)}\n`);
}

/** openapi/plants.yaml with a schema whose $ref points at `target`. */
export function withExternalRef(target: string): string {
  return source.replace(
    /^ {2}schemas:\n/m,
    `  schemas:\n    Outside:\n      $ref: ${JSON.stringify(target)}\n`,
  );
}
