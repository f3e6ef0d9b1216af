// README.md's "A short session", run as written: each curl command of the block against a
// server started as the page says (PLANTSTORE_TOKENS=s3cret-token-0123456789, a new SQLite
// file), its answer compared with the one shown: the status line, every header shown (the
// page trims the others), and the body exactly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleSteps, firstBlock } from "../helpers/doc-blocks.ts";
import { runToExit } from "../helpers/run-process.ts";
import {
  closeServerFixture,
  openServerFixture,
  type ServerFixture,
} from "../helpers/server-process.ts";

const PAGE_URL = "http://127.0.0.1:8080";
const PAGE_TOKEN = "s3cret-token-0123456789";

/** The answer shown under a command: status line, the headers shown, and the body. */
function shownAnswer(output: readonly string[]) {
  const blank = output.indexOf("");
  const head = blank === -1 ? output : output.slice(0, blank);
  return {
    status: head[0] ?? "",
    headers: head.slice(1),
    body: blank === -1 ? "" : output.slice(blank + 1).join("\n"),
  };
}

describe("README.md's short session", () => {
  let fixture: Partial<ServerFixture> = {};
  beforeAll(async () => {
    fixture = await openServerFixture({ PLANTSTORE_TOKENS: PAGE_TOKEN });
  });
  afterAll(async () => {
    await closeServerFixture(fixture);
  });

  it("when each command is run in order, then each answer is the one the page shows", async () => {
    const session = consoleSteps(firstBlock("README.md", "console", "## A short session"));
    expect(session.length).toBeGreaterThanOrEqual(9);
    for (const { command, output } of session) {
      const { status, headers, body } = shownAnswer(output);
      expect(command).toContain(PAGE_URL);
      const run = await runToExit(
        "bash",
        ["-c", command.replace(PAGE_URL, fixture.server?.url ?? "")],
        {
          env: {},
        },
      );
      expect(run.code, run.stderr).toBe(0);
      const [head = "", ...rest] = run.stdout.split("\r\n\r\n");
      const [statusLine, ...headerLines] = head.split("\r\n");
      const received = headerLines.map((line) => line.toLowerCase());
      expect({ command, status: statusLine, body: rest.join("\r\n\r\n") }).toEqual({
        command,
        status,
        body,
      });
      for (const header of headers) expect(received, command).toContain(header.toLowerCase());
    }
    // What the session leaves: the plant created, then deleted.
    expect(await fixture.stored?.resources.plants.get(9007199254740993n)).toBeUndefined();
  }, 60_000);
});
