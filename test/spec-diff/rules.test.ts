// The rules of classify.ts one by one, on a change as api-smart-diff reports it: the whole
// verdict (class, version raise and both sentences) for each side of the exchange. The edits of
// classify.test.ts check the class each real edit gets; these check each branch of a rule and
// what it says, in microseconds a case.
import type { Diff } from "api-smart-diff";
import { describe, expect, it } from "vitest";
import { classify, type Place, type Verdict } from "../../src/spec-diff/classify.ts";

const diff = (action: Diff["action"], before?: unknown, after?: unknown, more = {}): Diff =>
  ({ action, path: [], before, after, type: "unclassified", ...more }) as unknown as Diff;

const REQUEST: Place = { flow: "written", webhook: false };
const ANSWER: Place = { flow: "read", webhook: false };
const MESSAGE: Place = { flow: "read", webhook: true };
const WEBHOOK_ANSWER: Place = { flow: "written", webhook: true };

const breaking = (what: string, why: string): Verdict => ({
  severity: "breaking",
  bump: "major",
  what,
  why,
});
const possibly = (what: string, why: string): Verdict => ({
  severity: "possibly breaking",
  bump: "minor",
  what,
  why,
});
const compatible = (what: string, why: string): Verdict => ({
  severity: "compatible",
  bump: "minor",
  what,
  why,
});

type Case = [string, Diff, string[], Place, Verdict];

const RULES: Case[] = [
  [
    "a oneOf branch added to a request",
    diff("add", undefined, { type: "string" }),
    ["oneOf", "1"],
    REQUEST,
    compatible("a branch added to `oneOf`", "compatible (more is accepted)"),
  ],
  [
    "a anyOf branch removed from a request",
    diff("remove", { type: "string" }),
    ["anyOf", "0"],
    REQUEST,
    breaking("a branch removed from `anyOf`", "breaking for clients that send what it allowed"),
  ],
  [
    "an allOf branch added to a request",
    diff("add", undefined, { minLength: 1 }),
    ["allOf", "1"],
    REQUEST,
    breaking("a branch added to `allOf`", "breaking for clients whose values it now refuses"),
  ],
  [
    "an allOf branch removed from a request",
    diff("remove", { minLength: 1 }),
    ["allOf", "1"],
    REQUEST,
    compatible("a branch removed from `allOf`", "compatible (more is accepted)"),
  ],
  [
    "a oneOf branch added to an answer",
    diff("add", undefined, { type: "string" }),
    ["oneOf", "1"],
    ANSWER,
    breaking(
      "a branch added to `oneOf`",
      "breaking for clients that read it (another shape may come)",
    ),
  ],
  [
    "a oneOf branch added to a webhook message",
    diff("add", undefined, { type: "string" }),
    ["oneOf", "1"],
    MESSAGE,
    breaking(
      "a branch added to `oneOf`",
      "breaking for receivers that read it (another shape may come)",
    ),
  ],
  [
    "an allOf branch added to an answer",
    diff("add", undefined, { required: ["a"] }),
    ["allOf", "1"],
    ANSWER,
    compatible("a branch added to `allOf`", "compatible"),
  ],
  [
    "a oneOf branch removed from an answer",
    diff("remove", { type: "string" }),
    ["oneOf", "0"],
    ANSWER,
    compatible("a branch removed from `oneOf`", "compatible"),
  ],
  [
    "a type widened from integer to number in a request",
    diff("replace", "integer", "number"),
    ["type"],
    REQUEST,
    compatible("type changed from `integer` to `number`", "compatible (more is accepted)"),
  ],
  [
    "a type narrowed from number to integer in a request",
    diff("replace", "number", "integer"),
    ["type"],
    WEBHOOK_ANSWER,
    breaking("type changed from `number` to `integer`", "breaking for receivers"),
  ],
  [
    "a type narrowed in an answer",
    diff("replace", ["string", "null"], "string"),
    ["type"],
    ANSWER,
    compatible('type changed from `["string","null"]` to `string`', "compatible (less is sent)"),
  ],
  [
    "a type widened in an answer: the new types named",
    diff("replace", "string", ["string", "null", "integer"]),
    ["type"],
    ANSWER,
    breaking(
      'type changed from `string` to `["string","null","integer"]`',
      "breaking for clients that read it (null, integer may come)",
    ),
  ],
  [
    "a type replaced by another in an answer",
    diff("replace", "string", "integer"),
    ["type"],
    MESSAGE,
    breaking("type changed from `string` to `integer`", "breaking for receivers that read it"),
  ],
  [
    "a type set where there was none, in an answer",
    diff("add", undefined, "string"),
    ["type"],
    ANSWER,
    compatible("type set to `string`", "compatible (less is sent)"),
  ],
  [
    "a type removed from a request",
    diff("remove", "string"),
    ["type"],
    REQUEST,
    compatible("type `string` removed", "compatible (more is accepted)"),
  ],
  [
    "a type removed from an answer",
    diff("remove", "string"),
    ["type"],
    ANSWER,
    breaking("type `string` removed", "breaking for clients that read it"),
  ],
  [
    "a type set where there was none, in a request",
    diff("add", undefined, "string"),
    ["type"],
    REQUEST,
    breaking("type set to `string`", "breaking for clients"),
  ],
  [
    "a format removed from a request",
    diff("remove", "date"),
    ["format"],
    REQUEST,
    compatible("format `date` removed", "compatible (more is accepted)"),
  ],
  [
    "a format set on a request",
    diff("add", undefined, "date"),
    ["format"],
    REQUEST,
    breaking("format set to `date`", "breaking for clients"),
  ],
  [
    "a format set on an answer",
    diff("add", undefined, "date"),
    ["format"],
    ANSWER,
    compatible("format set to `date`", "compatible (less is sent)"),
  ],
  [
    "a format changed in a webhook message",
    diff("replace", "date", "date-time"),
    ["format"],
    MESSAGE,
    breaking("format changed from `date` to `date-time`", "breaking for receivers"),
  ],
  [
    "a parameter's default changed",
    diff("replace", 20, 50),
    ["default"],
    { ...REQUEST, parameter: true },
    breaking("default changed from `20` to `50`", "breaking for clients that leave it out"),
  ],
  [
    "a body member's default changed",
    diff("replace", 20, 50),
    ["default"],
    REQUEST,
    compatible("default changed from `20` to `50`", "compatible"),
  ],
  [
    "an answer's default changed",
    diff("replace", 20, 50),
    ["default"],
    { ...ANSWER, parameter: true },
    compatible("default changed from `20` to `50`", "compatible"),
  ],
  [
    "deprecated set",
    diff("add", undefined, true),
    ["deprecated"],
    ANSWER,
    compatible("deprecated set to `true`", "compatible"),
  ],
  [
    "a const removed from a request",
    diff("remove", "a"),
    ["const"],
    REQUEST,
    compatible("const `a` removed", "compatible (more is accepted)"),
  ],
  [
    "a const set on a request",
    diff("add", undefined, "a"),
    ["const"],
    REQUEST,
    breaking("const set to `a`", "breaking for clients that send another value"),
  ],
  [
    "a const set on an answer",
    diff("add", undefined, "a"),
    ["const"],
    ANSWER,
    compatible("const set to `a`", "compatible (less is sent)"),
  ],
  [
    "a const removed from a webhook message",
    diff("remove", "a"),
    ["const"],
    MESSAGE,
    breaking("const `a` removed", "breaking for receivers that read it"),
  ],
  [
    "a const changed in an answer",
    diff("replace", "a", "b"),
    ["const"],
    ANSWER,
    breaking("const changed from `a` to `b`", "breaking for clients that read it"),
  ],
  [
    "a maximum raised on a request",
    diff("replace", 10, 20),
    ["maximum"],
    REQUEST,
    compatible("`maximum` changed from `10` to `20`", "compatible (more is accepted)"),
  ],
  [
    "a maximum lowered on a request",
    diff("replace", 20, 10),
    ["maxLength"],
    REQUEST,
    breaking(
      "`maxLength` changed from `20` to `10`",
      "breaking for clients whose values it now refuses",
    ),
  ],
  [
    "a minimum raised on an answer",
    diff("replace", 1, 2),
    ["minItems"],
    ANSWER,
    compatible("`minItems` changed from `1` to `2`", "compatible (less is sent)"),
  ],
  [
    "a minimum lowered on an answer",
    diff("replace", 2, 1),
    ["minimum"],
    MESSAGE,
    breaking(
      "`minimum` changed from `2` to `1`",
      "breaking for receivers that read it (wider values may come)",
    ),
  ],
  [
    "a bound set on a request",
    diff("add", undefined, 5),
    ["maxProperties"],
    REQUEST,
    breaking("`maxProperties` set to `5`", "breaking for clients whose values it now refuses"),
  ],
  [
    "a bound removed from an answer",
    diff("remove", 5),
    ["exclusiveMaximum"],
    ANSWER,
    breaking(
      "`exclusiveMaximum` `5` removed",
      "breaking for clients that read it (wider values may come)",
    ),
  ],
  [
    "a pattern changed on a request",
    diff("replace", "^a$", "^b$"),
    ["pattern"],
    REQUEST,
    breaking(
      "`pattern` changed from `^a$` to `^b$`",
      "breaking for clients whose values it now refuses",
    ),
  ],
  [
    "a multipleOf changed on an answer",
    diff("replace", 2, 4),
    ["multipleOf"],
    ANSWER,
    compatible("`multipleOf` changed from `2` to `4`", "compatible (less is sent)"),
  ],
  [
    "a bound changed to something not a number",
    diff("replace", 2, "3"),
    ["minLength"],
    REQUEST,
    breaking(
      "`minLength` changed from `2` to `3`",
      "breaking for clients whose values it now refuses",
    ),
  ],
  [
    "additionalProperties closed on a request",
    diff("replace", true, false),
    ["additionalProperties"],
    REQUEST,
    breaking(
      "`additionalProperties` changed from `true` to `false`",
      "breaking for clients whose values it now refuses",
    ),
  ],
  [
    "additionalProperties opened on an answer",
    diff("remove", false),
    ["additionalProperties"],
    ANSWER,
    breaking(
      "`additionalProperties` `false` removed",
      "breaking for clients that read it (wider values may come)",
    ),
  ],
  [
    "an enum value added to a request",
    diff("add", undefined, "c"),
    ["enum", "2"],
    { ...REQUEST, owner: { before: { enum: ["a", "b"] }, after: { enum: ["a", "b", "c"] } } },
    compatible("enum value `c` added", "compatible"),
  ],
  [
    "an enum value removed from a request",
    diff("remove", "b"),
    ["enum", "1"],
    { ...REQUEST, owner: { before: { enum: ["a", "b"] }, after: { enum: ["a"] } } },
    breaking("enum value `b` removed", "breaking for clients that send it"),
  ],
  [
    "an enum value added to an answer",
    diff("add", undefined, "c"),
    ["enum", "2"],
    { ...ANSWER, owner: { before: { enum: ["a", "b"] }, after: { enum: ["a", "b", "c"] } } },
    possibly(
      "enum value `c` added",
      "possibly breaking for clients that read it (an unknown value)",
    ),
  ],
  [
    "an enum value removed from a webhook message",
    diff("remove", "b"),
    ["enum", "1"],
    { ...MESSAGE, owner: { before: { enum: ["a", "b"] }, after: { enum: ["a"] } } },
    compatible("enum value `b` removed", "compatible"),
  ],
  [
    "an enum value replaced in an answer",
    diff("replace", "b", "c"),
    ["enum", "1"],
    { ...ANSWER, owner: { before: { enum: ["a", "b"] }, after: { enum: ["a", "c"] } } },
    breaking("enum changed from `b` to `c`", "breaking for clients that read it"),
  ],
  [
    "an enum value replaced in a request",
    diff("replace", "b", "c"),
    ["enum", "1"],
    { ...REQUEST, owner: { before: { enum: ["a", "b"] }, after: { enum: ["a", "c"] } } },
    breaking("enum changed from `b` to `c`", "breaking for clients that send it"),
  ],
  [
    "an enum set on a request",
    diff("add", undefined, ["a"]),
    ["enum"],
    { ...REQUEST, owner: { before: { type: "string" }, after: { type: "string", enum: ["a"] } } },
    breaking('values limited to `["a"]`', "breaking for clients that send another"),
  ],
  [
    "an enum set on an answer",
    diff("add", undefined, ["a"]),
    ["enum"],
    { ...ANSWER, owner: { before: {}, after: { enum: ["a"] } } },
    compatible('values limited to `["a"]`', "compatible (less is sent)"),
  ],
  [
    "an enum removed from a request",
    diff("remove", ["a"]),
    ["enum"],
    { ...REQUEST, owner: { before: { enum: ["a"] }, after: {} } },
    compatible('enum `["a"]` removed', "compatible (more is accepted)"),
  ],
  [
    "an enum removed from a webhook message",
    diff("remove", ["a"]),
    ["enum"],
    { ...MESSAGE, owner: { before: { enum: ["a"] }, after: {} } },
    breaking('enum `["a"]` removed', "breaking for receivers that read it (any value may come)"),
  ],
  [
    "a member made required in a request",
    diff("add", undefined, "name"),
    ["required", "1"],
    REQUEST,
    breaking("`name` now required", "breaking for clients that leave it out"),
  ],
  [
    "members made optional in a request",
    diff("remove", ["name", "tag"]),
    ["required"],
    WEBHOOK_ANSWER,
    compatible("`name`, `tag` now optional", "compatible"),
  ],
  [
    "a member made required in an answer",
    diff("replace", undefined, "name"),
    ["required", "0"],
    ANSWER,
    compatible("`name` now always sent", "compatible"),
  ],
  [
    "a member made optional in a webhook message",
    diff("remove", "name"),
    ["required", "0"],
    MESSAGE,
    breaking("`name` now optional", "breaking for receivers that read it"),
  ],
  [
    "a member removed from an answer",
    diff("remove", { type: "string" }),
    ["properties", "tag"],
    ANSWER,
    breaking("member `tag` removed", "breaking for clients that read it"),
  ],
  [
    "a member removed from a request",
    diff("remove", { type: "string" }),
    ["properties", "tag"],
    REQUEST,
    possibly("member `tag` removed", "possibly breaking for clients that send it"),
  ],
  [
    "a member added",
    diff("add", undefined, { type: "string" }),
    ["properties", "tag"],
    MESSAGE,
    compatible("member `tag` added", "compatible"),
  ],
  [
    "a scope required",
    diff("add", undefined, "plants:write"),
    ["x-required-scopes", "0"],
    REQUEST,
    breaking("scope `plants:write` required", "breaking for tokens without it"),
  ],
  [
    "a scope no longer required",
    diff("remove", "plants:write"),
    ["x-required-scopes", "0"],
    REQUEST,
    compatible("scope `plants:write` no longer required", "fewer asked"),
  ],
  [
    "a security requirement removed",
    diff("remove", { bearerAuth: [] }),
    ["security", "0"],
    REQUEST,
    compatible("a security requirement removed", "fewer credentials asked"),
  ],
  [
    "security requirements added",
    diff("add", undefined, [{ bearerAuth: [] }]),
    ["security"],
    WEBHOOK_ANSWER,
    breaking("security requirements changed", "breaking for receivers"),
  ],
  [
    "an operationId changed",
    diff("replace", "getPlant", "readPlant"),
    ["operationId"],
    ANSWER,
    breaking(
      "operationId changed from `getPlant` to `readPlant`",
      "breaking for generated clients",
    ),
  ],
  [
    "a description changed, even under a member named like a keyword",
    diff("replace", "a", "b"),
    ["properties", "type", "description"],
    ANSWER,
    { severity: "compatible", bump: "patch", what: "description changed", why: "wording only" },
  ],
  [
    "the type of a member named like a wording keyword changed",
    diff("replace", "string", "integer"),
    ["properties", "title", "type"],
    REQUEST,
    breaking("type changed from `string` to `integer`", "breaking for clients"),
  ],
  [
    "an operation's security requirements removed as a whole",
    diff("remove", [{ bearerAuth: [] }]),
    ["security"],
    REQUEST,
    breaking("security requirements changed", "breaking for clients"),
  ],
  [
    "a security requirement added",
    diff("add", undefined, { apiKey: [] }),
    ["security", "1"],
    REQUEST,
    breaking("security requirements changed", "breaking for clients"),
  ],
  [
    "a format removed from an answer",
    diff("remove", "date"),
    ["format"],
    ANSWER,
    breaking("format `date` removed", "breaking for clients"),
  ],
  [
    "a required scope replaced by another",
    diff("replace", "plants:read", "plants:write"),
    ["x-required-scopes", "0"],
    REQUEST,
    breaking("scope `plants:write` required", "breaking for tokens without it"),
  ],
  [
    "a required entry replaced by another in a request",
    diff("replace", "a", "b"),
    ["required", "0"],
    REQUEST,
    breaking("`b` now required", "breaking for clients that leave it out"),
  ],
  [
    "an enum value added where the schema is not known",
    diff("add", undefined, "c"),
    ["enum", "2"],
    ANSWER,
    possibly(
      "enum value `c` added",
      "possibly breaking for clients that read it (an unknown value)",
    ),
  ],
  [
    "an allOf branch removed from an answer",
    diff("remove", { minLength: 1 }),
    ["allOf", "1"],
    ANSWER,
    breaking(
      "a branch removed from `allOf`",
      "breaking for clients that read it (another shape may come)",
    ),
  ],
  [
    "a type changed from string to number in a request",
    diff("replace", "string", "number"),
    ["type"],
    REQUEST,
    breaking("type changed from `string` to `number`", "breaking for clients"),
  ],
  [
    "a maximum changed from something not a number to a number",
    diff("replace", "many", 5),
    ["maximum"],
    REQUEST,
    breaking(
      "`maximum` changed from `many` to `5`",
      "breaking for clients whose values it now refuses",
    ),
  ],
  [
    "a maximum changed from a number to something not a number",
    diff("replace", 5, "many"),
    ["maximum"],
    REQUEST,
    breaking(
      "`maximum` changed from `5` to `many`",
      "breaking for clients whose values it now refuses",
    ),
  ],
  [
    "an items schema removed from an answer",
    diff("remove", { type: "string" }),
    ["items"],
    ANSWER,
    breaking(
      '`items` `{"type":"string"}` removed',
      "breaking for clients that read it (wider values may come)",
    ),
  ],
  [
    "an items schema removed from a request",
    diff("remove", { type: "string" }),
    ["items"],
    REQUEST,
    compatible('`items` `{"type":"string"}` removed', "compatible (more is accepted)"),
  ],
];

/** Changes no rule of classify.ts takes: the library's own verdict stands. */
const LIBRARY: [string, Diff, string[], Verdict][] = [
  [
    "an items schema replaced as a whole",
    diff("replace", { type: "string" }, [], { type: "breaking", description: "[Replaced] items" }),
    ["items"],
    breaking("items", "breaking"),
  ],
  [
    "a member replaced as a whole",
    diff("replace", { type: "string" }, true, { type: "breaking", description: "[Replaced] tag" }),
    ["properties", "tag"],
    breaking("tag", "breaking"),
  ],
  [
    "a branch of oneOf replaced",
    diff("replace", { type: "string" }, true, { type: "non-breaking", description: "x" }),
    ["oneOf", "1"],
    compatible("x", "compatible"),
  ],
  [
    "a keyword no rule knows set from false",
    diff("replace", false, true, { type: "breaking", description: "[Replaced]uniqueItems" }),
    ["uniqueItems"],
    breaking("uniqueItems", "breaking"),
  ],
  [
    "a description with brackets after its start",
    diff("add", undefined, 1, { type: "non-breaking", description: "added [twice] here" }),
    ["xml"],
    compatible("added [twice] here", "compatible"),
  ],
];

describe("classify", () => {
  it.each(RULES)(
    "when %s, then it is judged as the rule says",
    (_name, change, keys, place, verdict) => {
      expect(classify(change, keys, place)).toEqual(verdict);
    },
  );

  it.each(LIBRARY)(
    "when %s, then the library's verdict stands, its tag cut off",
    (_name, change, keys, verdict) => {
      expect(classify(change, keys, REQUEST)).toEqual(verdict);
    },
  );

  it.each<[string, Diff, Verdict]>([
    [
      "breaking",
      diff("replace", 1, 2, { type: "breaking", description: "[breaking] something changed" }),
      breaking("something changed", "breaking"),
    ],
    [
      "non-breaking",
      diff("add", undefined, 2, { type: "non-breaking", description: "added a thing" }),
      compatible("added a thing", "compatible"),
    ],
    [
      "deprecated",
      diff("add", undefined, 2, { type: "deprecated" }),
      compatible("add", "compatible"),
    ],
    [
      "annotation",
      diff("replace", 1, 2, { type: "annotation" }),
      { severity: "compatible", bump: "patch", what: "replace", why: "wording only" },
    ],
    [
      "anything else",
      diff("rename", 1, 2, { type: "unclassified", description: "" }),
      possibly("rename", "possibly breaking (not classified: review it)"),
    ],
  ])(
    "when no rule applies and the library says %s, then its class stands",
    (_name, change, verdict) => {
      expect(classify(change, ["xml"], ANSWER)).toEqual(verdict);
      // additionalProperties neither closed nor opened is the library's too.
      expect(classify(change, ["additionalProperties"], ANSWER)).toEqual(verdict);
    },
  );
});
