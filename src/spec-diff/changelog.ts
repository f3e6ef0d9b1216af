// The API changelog for consumers, in CommonMark: one section per version, newest first, each
// written from the classified diff against the version before it.
import type { Severity } from "./classify.ts";
import { type Change, diffDocuments } from "./diff.ts";
import type { Release } from "./releases.ts";

const HEADINGS: ReadonlyArray<[Severity, string]> = [
  ["breaking", "Breaking"],
  ["possibly breaking", "Possibly breaking"],
  ["compatible", "Compatible"],
];

/**
 * `versions` oldest first: the released documents, and the working one when its version is not
 * released yet (what a server running it publishes).
 */
export function changelog(title: string, versions: readonly Release[]): string {
  const sections: string[] = [];
  versions.forEach((release, index) => {
    const previous = versions[index - 1];
    sections.push(
      previous === undefined
        ? `## ${release.version}\n\nThe first released version.\n`
        : section(
            release.version,
            previous.version,
            diffDocuments(previous.document, release.document),
          ),
    );
  });
  return `# ${title}: API changelog\n\n${sections.reverse().join("\n")}`;
}

/** One version's section: its changes against `previous`, by severity, wording in one line. */
export function section(version: string, previous: string, changes: readonly Change[]): string {
  const parts = [`## ${version}\n\nChanges since ${previous}.\n`];
  for (const [severity, heading] of HEADINGS) {
    const items = changes.filter(
      (change) => change.severity === severity && change.bump !== "patch",
    );
    if (items.length > 0)
      parts.push(
        `### ${heading}\n\n${items.map((c) => `- ${escapeInline(c.sentence)}`).join("\n")}\n`,
      );
  }
  // Wording changes are many and small: one line names where they are.
  const worded = [...new Set(changes.filter((c) => c.bump === "patch").map((c) => c.operation))];
  if (worded.length > 0) {
    parts.push(
      `### Descriptions\n\nDescriptions or examples changed: ${worded.map((o) => `\`${o}\``).join(", ")}.\n`,
    );
  }
  if (changes.length === 0) parts.push("No change to the document.\n");
  return parts.join("\n");
}

// A sentence starts with a code span or a word, never with Markdown that opens a block; only
// the characters that could start inline markup outside its code spans (the even pieces
// between backticks) need escaping.
function escapeInline(sentence: string): string {
  return sentence
    .split("`")
    .map((piece, i) => (i % 2 === 0 ? piece.replaceAll(/[<>*_[\]]/g, "\\$&") : piece))
    .join("`");
}
