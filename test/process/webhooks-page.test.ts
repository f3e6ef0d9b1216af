// docs/webhooks.md's registration command, run as written against a server started with the
// README's token: the answer has every member the page shows, the same URL and description,
// and an id, a time and a secret of the shapes shown; the store holds the endpoint. The page's
// host (hooks.example.com) is not looked up on this offline machine: the server runs with
// PLANTSTORE_WEBHOOK_ALLOW_PRIVATE=true, which skips that lookup and nothing else here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleSteps, firstBlock } from "../helpers/doc-blocks.ts";
import { runToExit } from "../helpers/run-process.ts";
import {
  closeServerFixture,
  openServerFixture,
  type ServerFixture,
} from "../helpers/server-process.ts";

const PAGE_URL = "http://127.0.0.1:8080";

describe("docs/webhooks.md's registration command", () => {
  let fixture: Partial<ServerFixture> = {};
  beforeAll(async () => {
    fixture = await openServerFixture({
      PLANTSTORE_TOKENS: "s3cret-token-0123456789",
      PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "true",
    });
  });
  afterAll(async () => {
    await closeServerFixture(fixture);
  });

  it("when it is run, then the answer is the one shown but for the values the server makes, and the endpoint is stored", async () => {
    const [step, ...more] = consoleSteps(firstBlock("docs/webhooks.md", "console"));
    expect(more).toEqual([]);
    const command = step?.command ?? "";
    expect(command).toContain(`${PAGE_URL}/webhook-endpoints`);
    const run = await runToExit(
      "bash",
      ["-c", command.replace(PAGE_URL, fixture.server?.url ?? "")],
      {
        env: {},
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const shown = JSON.parse(step?.output.join("\n") ?? "") as Record<string, unknown>;
    const answer = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(answer).sort()).toEqual(Object.keys(shown).sort());
    expect(answer).toEqual({
      ...shown,
      id: expect.stringMatching(/^ep_[0-9a-f]+$/),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    const stored = await fixture.stored?.webhooks.getEndpoint(String(answer["id"]));
    expect(stored).toMatchObject({ url: shown["url"], description: shown["description"] });
  });
});
