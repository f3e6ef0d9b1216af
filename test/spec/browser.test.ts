// A person's view of /docs: Debian's Chromium, driven by playwright-core (never a downloaded
// browser), opens the page of a real server, authorizes with a token, sends a create with
// "Try it out" and sees the 200; the plant is then in the store. It also reads the API's
// description on /docs and on `npm run docs:build`'s page, as a portal shows it. Screenshots:
// test-results/docs-create.png, docs-info.png and docs-build-info.png. Without /usr/bin/chromium the test is skipped with a line
// saying so, unless PLANTSTORE_REQUIRE_BROWSER=1 (set by .ci/run), which makes it a failure.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN, uniqueId } from "../helpers/app.ts";
import { markRan, TEST_RESULTS } from "../helpers/ran-marker.ts";
import { runToExit } from "../helpers/run-process.ts";
import {
  closeServerFixture,
  openServerFixture,
  REPO_ROOT,
  type ServerFixture,
} from "../helpers/server-process.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasBrowser = existsSync(CHROMIUM);
const required = process.env["PLANTSTORE_REQUIRE_BROWSER"] === "1";
const SKIP_NOTICE = `${CHROMIUM} not found: the browser test of /docs is skipped (apt-get install chromium, or PLANTSTORE_REQUIRE_BROWSER=1 to fail instead)`;

if (!hasBrowser && !required) process.stdout.write(`\n  ${SKIP_NOTICE}\n\n`);

describe.runIf(!hasBrowser && required)("the browser test, when a browser is required", () => {
  it("when PLANTSTORE_REQUIRE_BROWSER=1 and no chromium is installed, then the run fails", () => {
    expect.fail(SKIP_NOTICE);
  });
});

describe.runIf(hasBrowser)("/docs in a real browser", () => {
  let fixture: Partial<ServerFixture> = {};
  const profile = mkdtempSync(join(tmpdir(), "plantstore-chromium-"));

  beforeAll(async () => {
    fixture = await openServerFixture();
  });
  afterAll(async () => {
    await closeServerFixture(fixture);
    rmSync(profile, { recursive: true, force: true });
  });

  const launch = (): Promise<BrowserContext> =>
    chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-gpu",
        "--disable-quic",
      ],
    });

  it("when a person authorizes with a token and creates, reads, lists and deletes a plant from /docs, then they see each answer and the store follows", async () => {
    const url = fixture.server?.url ?? "";
    const context = await launch();
    const problems: string[] = [];
    const requested: string[] = [];
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      page.on("console", (message) => {
        // The browser asks for /favicon.ico on its own; that 404 is expected.
        if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico")) {
          problems.push(message.text());
        }
      });
      page.on("pageerror", (error) => problems.push(error.message));
      page.on("request", (request) => requested.push(request.url()));

      await page.goto(`${url}/docs`);
      await page.locator(".opblock-tag-section").first().waitFor({ timeout: 20_000 });

      // Authorize: paste the token into the bearerAuth scheme and close the dialog.
      await page.locator(".auth-wrapper button.authorize").click();
      const scheme = page.locator(".auth-container", { hasText: "bearerAuth" });
      await scheme.locator("input").fill(TOKEN);
      await scheme.getByRole("button", { name: "Apply credentials" }).click();
      await page.locator(".dialog-ux button.close-modal").click();

      // POST /plants → Try it out → a body of our own → Execute.
      const operation = page.locator("#operations-plants-createPlant");
      await operation.locator(".opblock-summary").click();
      await operation.getByRole("button", { name: "Try it out" }).click();
      const id = uniqueId();
      const name = `Browser fern ${id}`;
      await operation
        .locator("textarea.body-param__text")
        .fill(JSON.stringify({ id: Number(id % 1_000_000n), name, tag: "from /docs" }));
      await operation.getByRole("button", { name: "Execute" }).click();

      const live = operation.locator(".live-responses-table");
      await expect
        .poll(() => live.locator(".response-col_status").last().textContent(), { timeout: 20_000 })
        .toContain("200");
      expect(await live.locator(".response-col_description").last().textContent()).toContain(name);
      mkdirSync(TEST_RESULTS, { recursive: true });
      await live.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(TEST_RESULTS, "docs-create.png") });

      const stored = await fixture.stored?.resources.plants.get(id % 1_000_000n);
      expect(stored).toEqual({ id: id % 1_000_000n, name, tag: "from /docs" });

      // The other plant operations, from the same page: read it, find it in a page, delete it.
      const tryOut = async (
        operationId: string,
        parameters: Record<string, string>,
        status: string,
      ): Promise<string> => {
        const block = page.locator(`#operations-plants-${operationId}`);
        await block.locator(".opblock-summary").click();
        await block.getByRole("button", { name: "Try it out" }).click();
        for (const [parameter, value] of Object.entries(parameters)) {
          const input = block.locator(`tr[data-param-name="${parameter}"] input`);
          // Not prefilled with an example kept for the tests (after=10001: an empty page).
          expect(await input.inputValue(), parameter).toBe(parameter === "limit" ? "100" : "");
          expect(await block.locator(`tr[data-param-name="${parameter}"] select`).count()).toBe(0);
          await input.fill(value);
        }
        await block.getByRole("button", { name: "Execute" }).click();
        const answers = block.locator(".live-responses-table");
        await expect
          .poll(() => answers.locator(".response-col_status").last().textContent(), {
            timeout: 20_000,
          })
          .toContain(status);
        return (await answers.locator(".response-col_description").last().textContent()) ?? "";
      };
      const shortId = String(id % 1_000_000n);
      expect(await tryOut("getPlant", { id: shortId }, "200")).toContain(name);
      expect(
        await tryOut("listPlants", { after: String((id % 1_000_000n) - 1n), limit: "1" }, "200"),
      ).toContain(name);
      await tryOut("deletePlant", { id: shortId }, "204");
      expect(await fixture.stored?.resources.plants.get(id % 1_000_000n)).toBeUndefined();
      // Everything came from this server, and the CSP had nothing to refuse.
      expect(requested.filter((r) => !r.startsWith(`${url}/`))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    markRan();
  }, 90_000);

  it("when the API's description is read on /docs and on npm run docs:build's page, then it opens with the API, shows the whole id range as a paragraph, then the limits this server keeps", async () => {
    const built = await runToExit("npm", ["run", "docs:build"], { env: {}, timeoutMs: 60_000 });
    expect(built.code, built.stderr).toBe(0);
    const context = await launch();
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      /** The rendered description: its text, and whether any list in it is numbered. */
      const readInfo = async (info: string, shot: string) => {
        const block = page.locator(info).first();
        await block.waitFor({ timeout: 20_000 });
        mkdirSync(TEST_RESULTS, { recursive: true });
        await page.screenshot({ path: join(TEST_RESULTS, shot) });
        return {
          text: ((await block.textContent()) ?? "").replace(/\s+/g, " "),
          numbered: await block.locator("ol").count(),
        };
      };
      const expectReadsRight = ({ text, numbered }: { text: string; numbered: number }) => {
        expect(text).toContain(
          "from -9223372036854775808 up to and including 9223372036854775807, and are compared",
        );
        expect(text).toContain("an idle keep-alive connection is closed after 72 s");
        const calling = text.indexOf("Calling it.");
        expect(calling).toBeGreaterThan(text.indexOf("A store of plants: create a plant"));
        expect(text.indexOf("Connections and HTTP.")).toBeGreaterThan(calling);
        expect(text).not.toContain("PLANTSTORE_");
        expect(numbered).toBe(0);
      };
      await page.goto(`${fixture.server?.url}/docs`);
      expectReadsRight(await readInfo(".information-container .info", "docs-info.png"));
      // The first screen: the API and how to call it, before any limit of the server.
      const viewport = page.viewportSize()?.height ?? 0;
      const top = async (text: string) =>
        (await page.getByText(text, { exact: true }).first().boundingBox())?.y ?? Infinity;
      expect(await top("Calling it.")).toBeLessThan(viewport);
      expect(await top("Calling it.")).toBeLessThan(await top("Connections and HTTP."));
      // The changelog, linked in Swagger UI's own style, from this server.
      const changelog = page.locator(".information-container a.info__extdocs");
      expect(await changelog.textContent()).toBe(
        "API changelog: what changed from one released version to the next",
      );
      const href = (await changelog.getAttribute("href")) ?? "";
      expect(href).toBe(`${fixture.server?.url}/changelog.md`);
      const answer = await fetch(href);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toMatch(/^# /);
      await page.goto(pathToFileURL(join(REPO_ROOT, "dist/docs/index.html")).href);
      // Redocly's page: the introduction is the section of the document's root.
      expectReadsRight(await readInfo('[data-section-id="/"]', "docs-build-info.png"));
    } finally {
      await context.close();
    }
  }, 90_000);
});
