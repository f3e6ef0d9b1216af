// The project's rules for one change inside a schema or an operation that api-smart-diff found:
// who reads the changed place (a client, or a webhook's receiver), and whether that reader can
// break. The classes follow oasdiff's checks (an ERR is breaking, a WARN possibly breaking, an
// INFO compatible) and Optic's breaking-change rules; test/spec-diff/classify.test.ts names the
// rule each edit follows, and says why where this project chooses otherwise. Where no rule here
// applies, the library's own classification stands.
import type { Diff } from "api-smart-diff";

export type Severity = "breaking" | "possibly breaking" | "compatible";
/** The least `info.version` raise a change needs. */
export type Bump = "major" | "minor" | "patch";

export interface Verdict {
  severity: Severity;
  bump: Bump;
  /** What happened, e.g. "member `tag` removed". */
  what: string;
  /** Why it matters, for whom, e.g. "breaking for clients that read it". */
  why: string;
}

/**
 * Who sends the data at a place: the service's answers and webhook messages are read by the
 * API's consumers (`read`); requests and webhook answers are written by them (`written`).
 */
export type Flow = "read" | "written";

export interface Place {
  flow: Flow;
  /** The webhooks section: the consumer is the receiver. */
  webhook: boolean;
  /** A parameter's schema: its default is what a client that leaves it out gets. */
  parameter?: boolean;
  /** The schema that holds a changed enum, before and after (for the keyword's start or end). */
  owner?: { before: unknown; after: unknown };
}

export const BREAKING: Pick<Verdict, "severity" | "bump"> = {
  severity: "breaking",
  bump: "major",
};
export const POSSIBLY: Pick<Verdict, "severity" | "bump"> = {
  severity: "possibly breaking",
  bump: "minor",
};
export const ADDITION: Pick<Verdict, "severity" | "bump"> = {
  severity: "compatible",
  bump: "minor",
};
export const WORDING: Pick<Verdict, "severity" | "bump"> = {
  severity: "compatible",
  bump: "patch",
};

// Keywords that only describe (oasdiff's annotations, and this project's extensions for its
// examples and generated code), or say how this server stores what the contract describes
// (x-table, x-action, x-indexed), which no client sees: a change to one needs a patch, wherever
// it is.
const WORDS = new Set([
  "description",
  "summary",
  "title",
  "example",
  "examples",
  "externalDocs",
  "tags",
  "x-request",
  "x-setup",
  "x-generated",
  "x-exact-integer",
  "x-example-requests",
  "x-table",
  "x-action",
  "x-indexed",
  "contact",
  "license",
  "termsOfService",
  "$comment",
]);

// Under these a key is a name the document chose (a member, a header), not a keyword.
const NAMING = new Set(["properties", "patternProperties", "headers", "examples"]);

/** The first keyword of `keys` that only describes, if any: the change is wording only. */
export function wordingKeyword(keys: readonly string[]): string | undefined {
  return keys.find((key, i) => WORDS.has(key) && !NAMING.has(keys[i - 1] ?? ""));
}

// Constraints an upper bound (a larger value allows more) and a lower bound (a smaller one does).
const UPPER = new Set(["maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties"]);
const LOWER = new Set(["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties"]);
const COMPOSITION = new Set(["oneOf", "anyOf", "allOf"]);

export function classify(diff: Diff, keys: readonly string[], place: Place): Verdict {
  const who = readerOf(place);
  const key = keys.at(-1) ?? "";
  const parent = keys.at(-2) ?? "";
  const word = wordingKeyword(keys);
  if (word !== undefined) return { ...WORDING, what: `${word} changed`, why: "wording only" };
  if (keys.includes("x-required-scopes")) return scopes(diff);
  // Generated clients (this project's own included) name their methods by it.
  if (key === "operationId") {
    return {
      ...BREAKING,
      what: `operationId ${change(diff)}`,
      why: "breaking for generated clients",
    };
  }
  if (key === "security" || parent === "security") {
    return diff.action === "remove" && key !== "security"
      ? { ...ADDITION, what: "a security requirement removed", why: "fewer credentials asked" }
      : { ...BREAKING, what: "security requirements changed", why: `breaking for ${who.callers}` };
  }
  if (parent === "properties") return member(diff, key, place);
  if (parent === "required") return required(diff, place);
  if (key === "required" && Array.isArray(diff.before ?? diff.after)) return required(diff, place);
  if (parent === "enum" || key === "enum") return enumValue(diff, place);
  if (key === "const") return constValue(diff, place);
  if (COMPOSITION.has(parent)) return branch(diff, parent, place);
  if (key === "type") return type(diff, place);
  if (key === "format") return format(diff, place);
  if (key === "default") return defaultValue(diff, place);
  if (key === "deprecated") {
    return { ...ADDITION, what: `deprecated ${change(diff)}`, why: "compatible" };
  }
  if (UPPER.has(key) || LOWER.has(key) || key === "pattern" || key === "multipleOf") {
    return constraint(diff, key, place);
  }
  if (key === "additionalProperties") return additional(diff, place);
  // An array's items schema set allows fewer values, removed more.
  if (key === "items" && diff.action !== "replace") {
    const who = readerOf(place);
    const what = `\`items\` ${change(diff)}`;
    return tightenedOrLoosened(diff.action === "add", what, place, who.callers, who.readers);
  }
  return library(diff);
}

function readerOf(place: Place): { callers: string; readers: string; both: string } {
  return place.webhook
    ? { callers: "receivers", readers: "receivers that read it", both: "receivers" }
    : { callers: "clients", readers: "clients that read it", both: "clients" };
}

function scopes(diff: Diff): Verdict {
  const added = diff.action === "add" || diff.action === "replace";
  return added
    ? {
        ...BREAKING,
        what: `scope ${quote(diff.after)} required`,
        why: "breaking for tokens without it",
      }
    : { ...ADDITION, what: `scope ${quote(diff.before)} no longer required`, why: "fewer asked" };
}

function member(diff: Diff, name: string, place: Place): Verdict {
  const who = readerOf(place);
  if (diff.action === "remove") {
    // oasdiff: response-*-property-removed (ERR for a required one; Optic breaks either), and
    // request-property-removed (WARN): a client that still sends it may be refused.
    return place.flow === "read"
      ? { ...BREAKING, what: `member \`${name}\` removed`, why: `breaking for ${who.readers}` }
      : {
          ...POSSIBLY,
          what: `member \`${name}\` removed`,
          why: `possibly breaking for ${who.callers} that send it`,
        };
  }
  if (diff.action === "add") {
    // A new required member in a request is caught by its `required` entry.
    return { ...ADDITION, what: `member \`${name}\` added`, why: "compatible" };
  }
  return library(diff);
}

function required(diff: Diff, place: Place): Verdict {
  const who = readerOf(place);
  const names = (value: unknown): string =>
    (Array.isArray(value) ? value : [value]).map((v) => `\`${String(v)}\``).join(", ");
  const added = diff.action !== "remove";
  if (place.flow === "written") {
    return added
      ? {
          ...BREAKING,
          what: `${names(diff.after)} now required`,
          why: `breaking for ${who.callers} that leave it out`,
        }
      : { ...ADDITION, what: `${names(diff.before)} now optional`, why: "compatible" };
  }
  return added
    ? { ...ADDITION, what: `${names(diff.after)} now always sent`, why: "compatible" }
    : {
        ...BREAKING,
        what: `${names(diff.before)} now optional`,
        why: `breaking for ${who.readers}`,
      };
}

const enumOf = (schema: unknown): unknown[] | undefined => {
  const values = (schema as { enum?: unknown } | undefined)?.enum;
  return Array.isArray(values) ? values : undefined;
};

function enumValue(diff: Diff, place: Place): Verdict {
  const who = readerOf(place);
  const before = enumOf(place.owner?.before);
  const after = enumOf(place.owner?.after);
  // The whole keyword came or went: any value was allowed on one side.
  if (before === undefined && after !== undefined) {
    const what = `values limited to ${quote(after)}`;
    return place.flow === "written"
      ? { ...BREAKING, what, why: `breaking for ${who.callers} that send another` }
      : { ...ADDITION, what, why: "compatible (less is sent)" };
  }
  if (before !== undefined && after === undefined) {
    const what = `enum ${quote(before)} removed`;
    return place.flow === "written"
      ? { ...ADDITION, what, why: "compatible (more is accepted)" }
      : { ...BREAKING, what, why: `breaking for ${who.readers} (any value may come)` };
  }
  const added = diff.action === "add";
  const removed = diff.action === "remove";
  const what = added
    ? `enum value ${quote(diff.after)} added`
    : removed
      ? `enum value ${quote(diff.before)} removed`
      : `enum ${change(diff)}`;
  if (place.flow === "written") {
    return added
      ? { ...ADDITION, what, why: "compatible" }
      : { ...BREAKING, what, why: `breaking for ${who.callers} that send it` };
  }
  if (removed) return { ...ADDITION, what, why: "compatible" };
  return added
    ? { ...POSSIBLY, what, why: `possibly breaking for ${who.readers} (an unknown value)` }
    : { ...BREAKING, what, why: `breaking for ${who.readers}` };
}

function constValue(diff: Diff, place: Place): Verdict {
  const who = readerOf(place);
  const what = `const ${change(diff)}`;
  const widened = diff.action === "remove";
  const narrowed = diff.action === "add";
  if (place.flow === "written") {
    return widened
      ? { ...ADDITION, what, why: "compatible (more is accepted)" }
      : { ...BREAKING, what, why: `breaking for ${who.callers} that send another value` };
  }
  return narrowed
    ? { ...ADDITION, what, why: "compatible (less is sent)" }
    : { ...BREAKING, what, why: `breaking for ${who.readers}` };
}

/** A branch of oneOf, anyOf or allOf added or removed, as a whole. */
function branch(diff: Diff, keyword: string, place: Place): Verdict {
  const who = readerOf(place);
  if (diff.action !== "add" && diff.action !== "remove") return library(diff);
  const added = diff.action === "add";
  const what = `a branch ${added ? "added to" : "removed from"} \`${keyword}\``;
  // allOf: a branch added asks for more; the others: a branch added allows more.
  const allowsMore = keyword === "allOf" ? !added : added;
  if (place.flow === "written") {
    if (allowsMore) return { ...ADDITION, what, why: "compatible (more is accepted)" };
    return keyword === "allOf"
      ? { ...BREAKING, what, why: `breaking for ${who.callers} whose values it now refuses` }
      : { ...BREAKING, what, why: `breaking for ${who.callers} that send what it allowed` };
  }
  return allowsMore
    ? { ...BREAKING, what, why: `breaking for ${who.readers} (another shape may come)` }
    : { ...ADDITION, what, why: "compatible" };
}

function types(value: unknown): Set<string> {
  if (Array.isArray(value)) return new Set(value.map(String));
  if (typeof value === "string") return new Set([value]);
  return new Set();
}

/** Every value of a type in `from` is of a type in `to` (an integer is a number). */
function covered(from: Set<string>, to: Set<string>): boolean {
  return [...from].every((t) => to.has(t) || (t === "integer" && to.has("number")));
}

function type(diff: Diff, place: Place): Verdict {
  const who = readerOf(place);
  const before = types(diff.before);
  const after = types(diff.after);
  const what = `type ${change(diff)}`;
  // No type at all allows any value.
  const widened = after.size === 0 || (before.size > 0 && covered(before, after));
  const narrowed = before.size === 0 || (after.size > 0 && covered(after, before));
  if (place.flow === "written") {
    return widened
      ? { ...ADDITION, what, why: "compatible (more is accepted)" }
      : { ...BREAKING, what, why: `breaking for ${who.callers}` };
  }
  if (narrowed) return { ...ADDITION, what, why: "compatible (less is sent)" };
  const more = [...after].filter((t) => !before.has(t));
  const coming = widened && more.length > 0 ? ` (${more.join(", ")} may come)` : "";
  return { ...BREAKING, what, why: `breaking for ${who.readers}${coming}` };
}

function format(diff: Diff, place: Place): Verdict {
  const who = readerOf(place);
  const what = `format ${change(diff)}`;
  if (place.flow === "written") {
    return diff.action === "remove"
      ? { ...ADDITION, what, why: "compatible (more is accepted)" }
      : { ...BREAKING, what, why: `breaking for ${who.callers}` };
  }
  return diff.action === "add"
    ? { ...ADDITION, what, why: "compatible (less is sent)" }
    : { ...BREAKING, what, why: `breaking for ${who.both}` };
}

function defaultValue(diff: Diff, place: Place): Verdict {
  const what = `default ${change(diff)}`;
  // oasdiff: request-parameter-default-value-* (ERR); a body member's default is INFO.
  return place.parameter === true && place.flow === "written"
    ? { ...BREAKING, what, why: "breaking for clients that leave it out" }
    : { ...ADDITION, what, why: "compatible" };
}

function constraint(diff: Diff, key: string, place: Place): Verdict {
  const who = readerOf(place);
  const before = typeof diff.before === "number" ? diff.before : undefined;
  const after = typeof diff.after === "number" ? diff.after : undefined;
  // Removed is looser; set, or changed from or to something not a number, counts as tighter.
  let tighter: boolean;
  if (diff.action === "remove") tighter = false;
  else if (before !== undefined && after !== undefined) {
    tighter = UPPER.has(key) ? after < before : LOWER.has(key) ? after > before : true;
  } else tighter = true;
  const what = `\`${key}\` ${change(diff)}`;
  return tightenedOrLoosened(tighter, what, place, who.callers, who.readers);
}

function additional(diff: Diff, place: Place): Verdict {
  const who = readerOf(place);
  const closed = (value: unknown): boolean => value === false;
  const tighter = closed(diff.after) && !closed(diff.before);
  const what = `\`additionalProperties\` ${change(diff)}`;
  if (!tighter && !(closed(diff.before) && !closed(diff.after))) return library(diff);
  return tightenedOrLoosened(tighter, what, place, who.callers, who.readers);
}

function tightenedOrLoosened(
  tighter: boolean,
  what: string,
  place: Place,
  callers: string,
  readers: string,
): Verdict {
  if (place.flow === "written") {
    return tighter
      ? { ...BREAKING, what, why: `breaking for ${callers} whose values it now refuses` }
      : { ...ADDITION, what, why: "compatible (more is accepted)" };
  }
  // oasdiff: response-*-max-increased, -min-decreased, -unset (ERR).
  return tighter
    ? { ...ADDITION, what, why: "compatible (less is sent)" }
    : { ...BREAKING, what, why: `breaking for ${readers} (wider values may come)` };
}

function library(diff: Diff): Verdict {
  const what = diff.description?.replace(/^\[\w+\]\s*/, "") || `${diff.action}`;
  switch (diff.type) {
    case "breaking":
      return { ...BREAKING, what, why: "breaking" };
    case "non-breaking":
    case "deprecated":
      return { ...ADDITION, what, why: "compatible" };
    case "annotation":
      return { ...WORDING, what, why: "wording only" };
    default:
      return { ...POSSIBLY, what, why: "possibly breaking (not classified: review it)" };
  }
}

export function quote(value: unknown): string {
  return `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;
}

export function change(diff: Diff): string {
  if (diff.action === "add") return `set to ${quote(diff.after)}`;
  if (diff.action === "remove") return `${quote(diff.before)} removed`;
  return `changed from ${quote(diff.before)} to ${quote(diff.after)}`;
}
