// The project's rules for one change that api-smart-diff found: who reads the changed place
// (a client, or a webhook's receiver), and whether that reader can break. Where a rule here does
// not apply, the library's own classification stands.
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
}

const BREAKING: Pick<Verdict, "severity" | "bump"> = { severity: "breaking", bump: "major" };
const POSSIBLY: Pick<Verdict, "severity" | "bump"> = {
  severity: "possibly breaking",
  bump: "minor",
};
const ADDITION: Pick<Verdict, "severity" | "bump"> = { severity: "compatible", bump: "minor" };
const WORDING: Pick<Verdict, "severity" | "bump"> = { severity: "compatible", bump: "patch" };

// Keywords that only describe: a change to one needs a patch.
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
  "contact",
  "license",
  "termsOfService",
  "$comment",
]);

// Constraints an upper bound (a larger value allows more) and a lower bound (a smaller one does).
const UPPER = new Set(["maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties"]);
const LOWER = new Set(["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties"]);

export function classify(diff: Diff, keys: readonly string[], place: Place): Verdict {
  const who = readerOf(place);
  const key = keys.at(-1) ?? "";
  const parent = keys.at(-2) ?? "";
  // A member may be called `description`: a keyword is one not named under `properties`.
  const word = keys.find((k, i) => WORDS.has(k) && keys[i - 1] !== "properties");
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
  if (key === "type") return type(diff, place);
  if (key === "format") {
    return { ...BREAKING, what: `format ${change(diff)}`, why: `breaking for ${who.both}` };
  }
  if (UPPER.has(key) || LOWER.has(key) || key === "pattern" || key === "multipleOf") {
    return constraint(diff, key, place);
  }
  if (key === "additionalProperties") return additional(diff, place);
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
  const added = diff.action === "add" || (diff.action === "replace" && diff.after !== undefined);
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
        ...POSSIBLY,
        what: `${names(diff.before)} now optional`,
        why: `possibly breaking for ${who.readers}`,
      };
}

function enumValue(diff: Diff, place: Place): Verdict {
  const who = readerOf(place);
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
  return removed
    ? { ...ADDITION, what, why: "compatible" }
    : { ...POSSIBLY, what, why: `possibly breaking for ${who.readers} (an unknown value)` };
}

function types(value: unknown): Set<string> {
  if (Array.isArray(value)) return new Set(value.map(String));
  if (typeof value === "string") return new Set([value]);
  return new Set();
}

function type(diff: Diff, place: Place): Verdict {
  const who = readerOf(place);
  const before = types(diff.before);
  const after = types(diff.after);
  const what = `type ${change(diff)}`;
  const widened =
    before.size > 0 && [...before].every((t) => after.has(t)) && after.size > before.size;
  if (widened) {
    return place.flow === "written"
      ? { ...ADDITION, what, why: "compatible (more is accepted)" }
      : {
          ...POSSIBLY,
          what,
          why: `possibly breaking for ${who.readers} (${[...after].filter((t) => !before.has(t)).join(", ")} may come)`,
        };
  }
  return { ...BREAKING, what, why: `breaking for ${who.both}` };
}

function constraint(diff: Diff, key: string, place: Place): Verdict {
  const who = readerOf(place);
  const before = typeof diff.before === "number" ? diff.before : undefined;
  const after = typeof diff.after === "number" ? diff.after : undefined;
  let tighter: boolean;
  if (diff.action === "add") tighter = true;
  else if (diff.action === "remove") tighter = false;
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
  return tighter
    ? { ...ADDITION, what, why: "compatible (less is sent)" }
    : { ...POSSIBLY, what, why: `possibly breaking for ${readers} (wider values may come)` };
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
      return { ...POSSIBLY, what, why: "possibly breaking (not classified)" };
  }
}

function quote(value: unknown): string {
  return `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;
}

function change(diff: Diff): string {
  if (diff.action === "add") return `set to ${quote(diff.after)}`;
  if (diff.action === "remove") return `${quote(diff.before)} removed`;
  return `changed from ${quote(diff.before)} to ${quote(diff.after)}`;
}
