// The "did you mean" of the command line (src/cli/suggest.ts): the nearest known name when it
// is near enough to be a typo, nothing otherwise, and the given name shown printable.
import { describe, expect, it } from "vitest";
import { unknownName } from "../../src/cli/suggest.ts";

const COMMANDS = ["tokens", "webhooks", "conformance"];

describe("unknownName", () => {
  it.each([
    ["token", COMMANDS, 'unknown command "token"; did you mean "tokens"?'],
    ["webhook", COMMANDS, 'unknown command "webhook"; did you mean "webhooks"?'],
    ["conformace", COMMANDS, 'unknown command "conformace"; did you mean "conformance"?'],
    ["Tokens", COMMANDS, 'unknown command "Tokens"; did you mean "tokens"?'],
    ["plants", COMMANDS, 'unknown command "plants"'],
    ["x", COMMANDS, 'unknown command "x"'],
  ])("when the command is %j, then the message is %j", (given, known, message) => {
    expect(unknownName("command", given, known)).toBe(message);
  });

  it.each([
    ["creat", ["create", "list", "revoke"], '"creat"; did you mean "create"?'],
    ["rotat", ["add", "list", "remove", "rotate"], '"rotat"; did you mean "rotate"?'],
    ["ad", ["add", "list", "remove", "rotate"], '"ad"; did you mean "add"?'],
  ])("when the subcommand is %j, then the nearest is suggested", (given, known, ending) => {
    expect(unknownName("subcommand", given, known)).toBe(`unknown subcommand ${ending}`);
  });

  it("when the name holds control characters, then they are shown escaped", () => {
    expect(unknownName("command", "\u001b[2Jx\n", COMMANDS)).toBe(
      'unknown command "\\u001b[2Jx\\n"',
    );
  });

  it("when the name is long, then it is cut and compared with nothing", () => {
    const message = unknownName("command", "t".repeat(100_000), COMMANDS);
    expect(message).toBe(`unknown command "${"t".repeat(64)}"`);
  });
});
