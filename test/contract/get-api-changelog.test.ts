// GET /changelog.md (getApiChangelog): the API changelog as CommonMark, without credentials.
// The answers every operation gives alike (405, 500, 503) are tested for every operation of
// the document by the suites that read it; this file tests what is this operation's own.
import { readFileSync } from "node:fs";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { documentPath } from "../../src/openapi/document.ts";
import { expectError, useTestApp } from "../helpers/app.ts";

const version = (parse(readFileSync(documentPath, "utf8")) as { info: { version: string } }).info
  .version;

describe("GET /changelog.md", () => {
  const test = useTestApp();

  it("when the changelog is asked for without credentials, then 200 with CommonMark whose first version is the one this server runs", async () => {
    const res = await test().app.inject({ method: "GET", url: "/changelog.md" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    const headings = new MarkdownIt()
      .parse(res.body, {})
      .filter((_token, i, all) => all[i - 1]?.type === "heading_open" && all[i - 1]?.tag === "h2")
      .map((token) => token.content);
    expect(headings[0]).toBe(version);
    expect(headings.at(-1)).toBe("1.0.0");
  });

  it("when a query parameter is sent, then 400", async () => {
    expectError(await test().app.inject({ method: "GET", url: "/changelog.md?x=1" }), 400);
  });
});
