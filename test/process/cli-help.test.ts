// `plantstore` as a newcomer finds it: --help names every command, each command's --help and
// every refusal print only text a terminal shows as it is, and a mistyped command gets the
// nearest one suggested. No database is opened by any of these.
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";

const NEVER_OPENED = "sqlite:/nonexistent-dir/never-opened.db";
const COMMANDS = ["tokens", "webhooks", "conformance"];
// Control and format characters (an escape sequence, a bidi override), line separators.
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
/** What the run printed, its line feeds (which end lines, as meant) left out. */
const printed = ({ stdout, stderr }: { stdout: string; stderr: string }): string =>
  (stdout + stderr).replaceAll("\n", "");

describe("plantstore's help", () => {
  it("when plantstore --help is run, then it lists every command on a line of its own with what it does", async () => {
    const help = await runCli(NEVER_OPENED, ["--help"]);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stderr).toBe("");
    for (const command of COMMANDS) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} +\\w.{10,}$`, "m"));
    }
  });

  it.each([
    [[]],
    [["--help"]],
    [["help"]],
    [["-h"]],
    ...COMMANDS.map((command) => [[command, "--help"]]),
    [["tokens", "create", "--help"]],
    [["webhooks", "add", "-h"]],
    [["webhooks"]],
    [["nope"]],
    [["\u001b[31mred\u0007", "\u202eevil"]],
    [["tokens", "create", "--name", "x\u001b]0;title\u0007"]],
    [["webhooks", "list", "--j\u001bson"]],
  ])(
    "when run with %j, then nothing it prints holds a control character but line feeds",
    async (args) => {
      const result = await runCli(NEVER_OPENED, args);
      expect(printed(result)).not.toMatch(UNSAFE);
      expect(result.stdout + result.stderr).toContain("usage:");
    },
  );

  it.each([
    [["token"], 'unknown command "token"; did you mean "tokens"?'],
    [["webhook", "list"], 'unknown command "webhook"; did you mean "webhooks"?'],
    [["conformace"], 'unknown command "conformace"; did you mean "conformance"?'],
    [["tokens", "creat"], 'unknown tokens command "creat"; did you mean "create"?'],
    [["webhooks", "rotat", "ep_1"], 'unknown webhooks command "rotat"; did you mean "rotate"?'],
  ])("when run with %j, then it exits 2 suggesting the nearest command", async (args, line) => {
    const result = await runCli(NEVER_OPENED, args);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(`plantstore: ${line}`);
    expect(result.stdout).toBe("");
  });

  it("when the command is nothing like any, then it exits 2 naming it without a suggestion", async () => {
    const result = await runCli(NEVER_OPENED, ["plants"]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe('plantstore: unknown command "plants"');
  });
});
