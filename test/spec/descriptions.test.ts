// Every description and summary of the published document, rendered as CommonMark: a portal
// (Swagger UI, Redocly, Mintlify) must show what the YAML says. A wrapped line that starts with
// `9223372036854775807)` becomes an ordered list whose marker eats the number; a line that
// starts with `- ` or `#` becomes a list or a heading. Such a description fails here, and so
// does one that names a server variable (PLANTSTORE_*), which a portal reader cannot act on.
import MarkdownIt, { type Token } from "markdown-it";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { publishedDocument } from "../../src/docs/published-document.ts";

const markdown = new MarkdownIt("commonmark");

/**
 * Words for whoever runs the server, not for the API's readers: its commands, its storage
 * engines, its settings. A reader of the published page can act on none of them.
 */
const OPERATOR_WORDS = [
  /\bnpm\b/,
  /\bplantstore (?:tokens|webhooks|conformance)\b/,
  /\bsqlite\b/i,
  /\bpostgres(?:ql)?\b/i,
  /\bpgbouncer\b/i,
  /\b(?:DATABASE|PLANTSTORE)_[A-Z]/,
  /\benvironment variable/i,
  /\bprints? it\b/,
];

/** Subtrees that hold values, not prose: an example's payload, a schema's default. */
const VALUE_KEYS = new Set(["value", "example", "default", "enum", "const"]);

/** [where, text] of every description and summary, walking the document. */
function proseOf(node: unknown, where = "#"): [string, string][] {
  if (typeof node !== "object" || node === null) return [];
  const found: [string, string][] = [];
  for (const [key, value] of Object.entries(node)) {
    const at = `${where}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (
      (key === "description" || key === "summary" || key === "title") &&
      typeof value === "string"
    ) {
      found.push([at, value]);
    } else if (!VALUE_KEYS.has(key)) {
      found.push(...proseOf(value, at));
    }
  }
  return found;
}

/** The text a reader sees: every inline token's text, code spans included. */
function renderedText(tokens: Token[]): string {
  const parts: string[] = [];
  for (const token of tokens) {
    for (const child of token.children ?? []) {
      parts.push(child.type === "softbreak" ? " " : child.content);
    }
    parts.push(" ");
  }
  return parts.join("");
}

const numbersIn = (text: string): string[] => text.match(/\d+(?:\.\d+)*/g) ?? [];
const spaced = (text: string): string => text.replace(/\s+/g, " ").trim();
const codeSpansIn = (source: string): string[] =>
  [...source.matchAll(/`([^`]+)`/g)].map(([, code]) => spaced(code ?? ""));

/** What in the rendering the source did not mean: one line each, empty when it reads right. */
function misreadings(source: string): string[] {
  const tokens = markdown.parse(source, {});
  const problems: string[] = [];
  const text = renderedText(tokens);
  if (numbersIn(text).join(" ") !== numbersIn(source).join(" ")) {
    problems.push(`numbers lost or moved: ${numbersIn(text).join(" ")}`);
  }
  const shownCode = tokens.flatMap((token) =>
    (token.children ?? []).filter((c) => c.type === "code_inline").map((c) => spaced(c.content)),
  );
  for (const code of codeSpansIn(source)) {
    if (!shownCode.includes(code)) problems.push(`code span lost: \`${code}\``);
  }
  // Renderers laxer than CommonMark (Swagger UI's, Redocly's) start a list or a heading on any
  // line that looks like one, whatever its length or place: only the items meant are allowed.
  const itemLines = new Set(
    tokens.filter((t) => t.type === "list_item_open").map((t) => t.map?.[0] ?? -1),
  );
  source.split("\n").forEach((line, n) => {
    const marker = /^\s*(\d+[.)]|[-+*]|#{1,6}|>)(\s|$)/.exec(line)?.[1];
    if (marker !== undefined && !itemLines.has(n)) {
      problems.push(`a line starts with "${marker}", which a renderer may read as markup: ${line}`);
    }
  });
  tokens.forEach((token, index) => {
    const previous = tokens[index - 2];
    switch (token.type) {
      case "paragraph_open":
      case "paragraph_close":
      case "bullet_list_close":
      case "list_item_open":
      case "list_item_close":
        return;
      case "inline":
        for (const child of token.children ?? []) {
          if (
            child.type === "html_inline" ||
            child.type === "hardbreak" ||
            child.type === "image"
          ) {
            problems.push(`${child.type}: ${child.content}`);
          }
        }
        return;
      case "bullet_list_open":
        // A list is meant when a paragraph ending in a colon leads into it; a wrapped line
        // that happens to start with "- " or "* " is not.
        if (previous?.type !== "inline" || !previous.content.trimEnd().endsWith(":")) {
          problems.push(`a list not led into by a colon: ${tokens[index + 3]?.content}`);
        }
        return;
      default:
        problems.push(`${token.type}: ${spaced(tokens[index + 1]?.content ?? token.content)}`);
    }
  });
  return problems;
}

describe("the descriptions of the published document, rendered as CommonMark", () => {
  // The defaults, and values of another kind: limits turned off, times under a second.
  const environments = {
    defaults: {},
    "limits off, short deadlines, a metrics token": {
      PLANTSTORE_TOKEN_RATE_LIMIT: "0",
      PLANTSTORE_AUTH_FAILURE_LIMIT: "0",
      PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS: "0",
      PLANTSTORE_CLOSE_TIMEOUT_MS: "500",
      PLANTSTORE_METRICS_TOKEN: "metrics-token-0123456789",
    },
  };

  for (const [name, env] of Object.entries(environments)) {
    const proseOfPublished = async () => {
      const { ops } = loadConfig(env);
      const published = await publishedDocument({
        metricsOpen: ops.metricsToken === undefined,
        values: ops.published,
      }).at("https://plants.example.com");
      return proseOf(JSON.parse(published.json));
    };

    it(`when published with ${name}, then every description and summary renders as written`, async () => {
      const prose = await proseOfPublished();
      expect(prose.length).toBeGreaterThan(50);
      const problems = prose.flatMap(([where, text]) =>
        misreadings(text).map((problem) => `${where}: ${problem}`),
      );
      expect(problems).toEqual([]);
    });

    it(`when published with ${name}, then no description names a server variable or leaves a value unfilled`, async () => {
      const prose = await proseOfPublished();
      const leaks = prose.filter(([, text]) => /PLANTSTORE_|\{\{|\}\}/.test(text));
      expect(leaks).toEqual([]);
    });

    it(`when published with ${name}, then no description, summary or title speaks to the server's operators`, async () => {
      const prose = await proseOfPublished();
      const found = prose.flatMap(([where, text]) =>
        OPERATOR_WORDS.filter((word) => word.test(text)).map((word) => `${where}: ${word}`),
      );
      expect(found).toEqual([]);
    });
  }

  it("when published, then the limits in force are the ones stated, with the answers they concern", async () => {
    const { ops } = loadConfig({
      PLANTSTORE_HEADERS_TIMEOUT_MS: "2500",
      PLANTSTORE_TOKEN_RATE_LIMIT: "0",
      PLANTSTORE_KEEPALIVE_TIMEOUT_MS: "4000",
    });
    type Described = { description: string };
    const { info, components } = JSON.parse(
      (await publishedDocument({ metricsOpen: true, values: ops.published }).at("http://x")).json,
    ) as { info: Described; components: { responses: Record<string, Described> } };
    expect(components.responses["RequestTimeout"]?.description).toContain(
      "headers took longer than 2500 ms",
    );
    expect(components.responses["TooManyRequests"]?.description).toContain(
      "to operations that need credentials: no limit;",
    );
    expect(info.description).toContain("an idle keep-alive connection is closed after 4 s;");
  });

  it("when published, then the API's description opens with what it does and how to call it, the server's limits after", async () => {
    const { info } = JSON.parse(
      (
        await publishedDocument({ metricsOpen: true, values: loadConfig({}).ops.published }).at(
          "http://x",
        )
      ).json,
    ) as { info: { description: string } };
    const [opening = ""] = info.description.split("\n\n");
    expect(opening).toMatch(/^A store of plants: create a plant, read one by its id/);
    const calling = info.description.indexOf("**Calling it.** ");
    const limits = info.description.indexOf("**Connections and HTTP.** ");
    expect(calling).toBeGreaterThan(0);
    expect(limits).toBeGreaterThan(calling);
    expect(info.description.slice(0, limits)).not.toMatch(
      /\d+ (?:s|ms|KiB|bytes)\b|timeout|keep-alive/,
    );
  });

  it.each([
    ["from -9223372036854775808 to\n9223372036854775807) and are compared", /starts with "9223/],
    ["a page\n1. of plants", /numbers lost/],
    ["a wrapped\n- line", /a list not led into/],
    ["a wrapped\n# line", /heading_open/],
    ["a `code\nspan` and <b>html</b>", /html_inline/],
    ["text\n\n    indented", /code_block/],
  ])("when a description reads %j, then it is refused", (source, problem) => {
    expect(misreadings(source).join("\n")).toMatch(problem);
  });
});
