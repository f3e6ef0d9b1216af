// `npm run docs:build`'s page carries nothing a document could run: descriptions sanitized
// before Redoc renders them, and a Content-Security-Policy that lets only the page's own
// scripts run (test/spec/browser.test.ts opens the built page in Chromium).
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildDocs, sanitizeMarkdown } from "../../scripts/build-docs.ts";
import { withTopLevel } from "../helpers/hostile-yaml.ts";

const dir = mkdtempSync(join(tmpdir(), "plantstore-docs-build-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOSTILE =
  '<img src=x onerror="window.hacked=1"> <script>window.hacked=2</script> [link](javascript:window.hacked=3)';

describe("the static reference page", () => {
  it("when descriptions hold HTML and javascript: links, then they are escaped and dropped, and code spans are kept", () => {
    expect(sanitizeMarkdown(`${HOSTILE} and \`<URL>; rel="next"\``)).toBe(
      '&lt;img src=x onerror="window.hacked=1"> &lt;script>window.hacked=2&lt;/script> [link](#) and `<URL>; rel="next"`',
    );
  });

  it("when a hostile document is built, then no raw HTML of its own is in the page and its policy names exactly the page's scripts", () => {
    const input = join(dir, "hostile.yaml");
    const output = join(dir, "index.html");
    writeFileSync(
      input,
      withTopLevel("").replace(/^ {2}description: \|\n/m, `  description: |\n    ${HOSTILE}\n\n`),
    );

    buildDocs(input, output);

    const html = readFileSync(output, "utf8");
    expect(html).not.toMatch(/(<|\\u003c)img src=x/);
    expect(html).not.toContain("javascript:window.hacked");
    const policy = /<head>\s*<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(
      html,
    )?.[1];
    expect(policy).toBeDefined();
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map(
      ([, code]) =>
        `'sha256-${createHash("sha256")
          .update(code ?? "")
          .digest("base64")}'`,
    );
    expect(scripts.length).toBeGreaterThan(0);
    const scriptSrc = policy?.split("; ").find((part) => part.startsWith("script-src "));
    expect(scriptSrc).toBe(`script-src ${scripts.join(" ")}`);
    expect(policy).toContain("default-src 'none'");
  });
});
