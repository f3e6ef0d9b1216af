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
    ...COMMANDS.map((command) => [[command, "--help"]]),
    [["tokens", "create", "-h"]],
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

  // Which name is suggested when: test/unit/cli-suggest.test.ts.
  it("when a command or a subcommand is mistyped, then it exits 2 suggesting the nearest, with nothing on stdout", async () => {
    for (const [args, line] of [
      [["token", "list"], 'unknown command "token"; did you mean "tokens"?'],
      [["webhooks", "rotat", "ep_1"], 'unknown webhooks command "rotat"; did you mean "rotate"?'],
    ] as const) {
      const result = await runCli(NEVER_OPENED, args);
      expect(result.code).toBe(2);
      expect(result.stderr.split("\n")[0]).toBe(`plantstore: ${line}`);
      expect(result.stdout).toBe("");
    }
  });
});
