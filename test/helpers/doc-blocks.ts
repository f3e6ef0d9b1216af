// The commands and code a page of this repository shows, for the tests that run them as a
// reader would (docs/webhooks.md's receiver, docs/scaling-out.md's two instances, …).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./server-process.ts";

/**
 * Every fenced block of `language` in `page` (a path from the repository root), in order,
 * without its fences; only those after the heading `from` when it is given.
 */
export function fencedBlocks(page: string, language: string, from?: string): string[] {
  const text = readFileSync(join(REPO_ROOT, page), "utf8");
  const start = from === undefined ? 0 : text.indexOf(`\n${from}\n`);
  if (start === -1) throw new Error(`${page} has no heading "${from}"`);
  const blocks: string[] = [];
  let open: string[] | undefined;
  for (const line of text.slice(start).split("\n")) {
    if (open === undefined) {
      if (line === `\`\`\`${language}`) open = [];
    } else if (line === "```") {
      blocks.push(`${open.join("\n")}\n`);
      open = undefined;
    } else {
      open.push(line);
    }
  }
  return blocks;
}

/** The one fenced block of `language` the tests run, failing clearly when there is none. */
export function firstBlock(page: string, language: string, from?: string): string {
  const [block] = fencedBlocks(page, language, from);
  if (block === undefined) throw new Error(`${page} shows no \`\`\`${language} block`);
  return block;
}

/** `text` with `from` replaced by `to`, failing when `from` is not there (the page changed). */
export function replacedOnce(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the page no longer shows ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

/** A `$ command` of a console block and the lines shown under it. */
export interface ConsoleStep {
  command: string;
  output: string[];
}

/** Each `$ command` of a console block with its output, comment-only commands left out. */
export function consoleSteps(block: string): ConsoleStep[] {
  const steps: ConsoleStep[] = [];
  for (const part of block.split(/^\$ /m).slice(1)) {
    const [command = "", ...output] = part.trimEnd().split("\n");
    if (!command.startsWith("#")) steps.push({ command, output });
  }
  return steps;
}
