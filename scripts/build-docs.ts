// `npm run docs:build` (after `npm run bundle`): dist/docs/index.html, a static reference page
// made by `redocly build-docs --inlineBundle` from dist/openapi.yaml, which carries nothing a
// document could run in a reader's browser:
// - the descriptions are sanitized first: raw HTML outside code spans is escaped (Redoc renders
//   Markdown's HTML as it is, and its own `sanitize` cannot run at build time) and `javascript:`
//   links are dropped;
// - the page carries a Content-Security-Policy that lets only its own scripts run (by their
//   SHA-256, computed here), loads nothing from elsewhere, and allows no frame, form or plugin.
// `tsx scripts/build-docs.ts [IN OUT]` builds another document (the tests' own).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DocumentRefused, parseYaml } from "../src/openapi/document.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

// Keys whose text Redoc renders as Markdown.
const MARKDOWN = new Set(["description", "summary", "title"]);

/** Markdown with raw HTML outside code spans escaped, and `javascript:` link targets dropped. */
export function sanitizeMarkdown(text: string): string {
  return text
    .split(/(`+)/)
    .map((piece, i, pieces) => {
      // Inside a code span (between runs of backticks) the text is shown as it is.
      const inCode = pieces.slice(0, i).filter((p) => p.startsWith("`")).length % 2 === 1;
      return inCode || piece.startsWith("`")
        ? piece
        : piece.replace(/<(?=[A-Za-z/!?])/g, "&lt;").replace(/\]\(\s*javascript:[^)]*\)/gi, "](#)");
    })
    .join("");
}

/** The document with every Markdown text sanitized (member names are left alone). */
export function sanitizeDocument(value: unknown, parentKey = ""): unknown {
  if (Array.isArray(value)) return value.map((item) => sanitizeDocument(item));
  if (typeof value !== "object" || value === null) return value;
  const naming = ["properties", "examples", "headers", "responses"].includes(parentKey);
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      !naming && MARKDOWN.has(key) && typeof item === "string"
        ? sanitizeMarkdown(item)
        : sanitizeDocument(item, key),
    ]),
  );
}

/** The page's policy: its inline scripts by hash, its inline styles, data: images; nothing else. */
export function pagePolicy(html: string): string {
  const hashes = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, code]) =>
      `'sha256-${createHash("sha256")
        .update(code ?? "")
        .digest("base64")}'`,
  );
  return [
    "default-src 'none'",
    `script-src ${hashes.join(" ")}`,
    "style-src 'unsafe-inline'",
    "img-src data:",
    "font-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join("; ");
}

export function buildDocs(input: string, output: string): void {
  const document = sanitizeDocument(parseYaml(readFileSync(input, "utf8")));
  const work = mkdtempSync(join(tmpdir(), "plantstore-docs-"));
  try {
    const sanitized = join(work, "openapi.json");
    writeFileSync(sanitized, JSON.stringify(document));
    mkdirSync(dirname(output), { recursive: true });
    execFileSync(
      join(root, "node_modules/.bin/redocly"),
      ["build-docs", sanitized, "--inlineBundle", "--output", output],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const html = readFileSync(output, "utf8");
  const meta = `<meta http-equiv="Content-Security-Policy" content="${pagePolicy(html)}">`;
  // First in <head>: a policy applies to what comes after it.
  writeFileSync(output, html.replace(/<head>/, `<head>\n  ${meta}`));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [input = join(root, "dist/openapi.yaml"), output = join(root, "dist/docs/index.html")] =
    process.argv.slice(2);
  try {
    buildDocs(input, output);
    process.stdout.write(`wrote ${output}\n`);
  } catch (error) {
    if (!(error instanceof DocumentRefused)) throw error;
    process.stderr.write(`${input}: ${error.message}\n`);
    process.exitCode = 1;
  }
}
