// docs/webhooks.md's "Receiving webhooks" as a reader uses it: its receiver, run by plain node in a
// fresh project with `plantstore-client` installed from its tarball, takes deliveries from our sender (and
// refuses a forged one), and its curl recipe signs a delivery the receiver accepts.
import { spawn } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWebhookSecret } from "../../src/store/webhooks.ts";
import { closeWebhookConnections, sendWebhookAttempt } from "../../src/webhooks/send.ts";
import { signatureHeaders } from "../../src/webhooks/signature.ts";
import { makeConsumerProject } from "../helpers/consumer-project.ts";
import { firstBlock } from "../helpers/doc-blocks.ts";
import { markRan } from "../helpers/ran-marker.ts";
import { runToExit } from "../helpers/run-process.ts";

const SECTION = "## Receiving webhooks";
/** The first fenced block of `language` in the section. */
const block = (language: string): string => firstBlock("docs/webhooks.md", language, SECTION);

describe("the webhook receiver of docs/webhooks.md", () => {
  const secret = newWebhookSecret();
  let project = "";
  let url = "";
  let output = "";
  let stop = () => {};

  beforeAll(async () => {
    project = await makeConsumerProject("plantstore-receiver-");
    // Listening where the test can find it, instead of on port 3000.
    const code = block("js").replace(
      ".listen(3000)",
      '.listen(0, "127.0.0.1", function () { console.log("port", this.address().port); })',
    );
    expect(code).toContain('.listen(0, "127.0.0.1"');
    writeFileSync(join(project, "receiver.mjs"), code);
    const child = spawn(process.execPath, ["receiver.mjs"], {
      cwd: project,
      env: { ...process.env, WEBHOOK_SECRET: secret },
      stdio: ["ignore", "pipe", "inherit"],
    });
    stop = () => child.kill();
    const port = await new Promise<string>((resolve, reject) => {
      child.once("exit", (exitCode) => reject(new Error(`the receiver exited (${exitCode})`)));
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        const found = /^port (\d+)$/m.exec(output);
        if (found?.[1] !== undefined) resolve(found[1]);
      });
    });
    url = `http://127.0.0.1:${port}/`;
  }, 180_000);

  afterAll(async () => {
    stop();
    await closeWebhookConnections();
    if (project !== "") rmSync(project, { recursive: true, force: true });
  });

  const deliver = (body: string, secrets: readonly string[], sentBody = body) => {
    const id = `msg_${crypto.randomUUID()}`;
    const signed = signatureHeaders({ id, timestampSeconds: Date.now() / 1000, body, secrets });
    const headers = { ...signed, "webhook-event": "newPlant" };
    const attempt = { url, headers, body: sentBody, timeoutMs: 5_000, allowPrivate: true };
    return { id, result: sendWebhookAttempt(attempt) };
  };

  it("when our sender delivers a plant (signed with two secrets, as in a rotation), then it answers 204 and has the id exactly", async () => {
    const { id, result } = deliver('{"id":9007199254740993,"name":"Monstera"}', [
      newWebhookSecret(),
      secret,
    ]);
    expect(await result).toMatchObject({ kind: "answered", status: 204 });
    // Its log line comes through a pipe, maybe after the answer.
    await expect.poll(() => output).toContain(`${id} new 9007199254740993n Monstera`);
  });

  it("when the body is not the one signed, then it answers 400", async () => {
    const { id, result } = deliver('{"id":1,"name":"Fern"}', [secret], '{"id":2,"name":"Fern"}');
    expect(await result).toMatchObject({ kind: "answered", status: 400 });
    expect(output).not.toContain(id);
  });

  // .ci/run installs both and requires this test (a marker); elsewhere it may be skipped.
  const tools = ["/usr/bin/curl", "/usr/bin/openssl"].every(existsSync);
  if (!tools)
    process.stdout.write("\n  curl or openssl missing: the page's curl recipe is not tried\n\n");
  it.runIf(tools)(
    "when a delivery is signed by hand with the page's recipe, then it answers 204",
    async () => {
      const script = block("sh")
        .replace("secret='whsec_…'", `secret='${secret}'`)
        .replace("http://127.0.0.1:3000/", url);
      const sent = await runToExit("bash", ["-c", script], { env: {} });
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout).toMatch(/^HTTP\/1\.1 204/);
      await expect.poll(() => output).toContain("msg_by_hand new 9007199254740993n Monstera");
      markRan("curl-recipe");
    },
  );
});
