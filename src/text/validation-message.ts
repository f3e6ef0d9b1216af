// Turns openapi-backend's ajv errors into one sentence that names each failing parameter or
// body field and the rule it broke, in the document's own terms. ajv runs with allErrors and
// verbose (src/openapi/backend.ts): every failure, each with its schema and data. A failed
// anyOf/oneOf comes as the errors of every branch plus its own; those are reduced to what the
// client most likely meant (explainChoice), so that alternatives never read as all required.
import type { ErrorObject } from "ajv";
import { INT64_MAX, INT64_MIN } from "./int64.ts";
import { jsonTypeOf, withArticle } from "./json-type.ts";

export function describeValidationErrors(errors: readonly ErrorObject[]): string {
  const reasons = [...new Set(explain(errors))];
  if (reasons.length === 0) return "the request is not valid";
  // A body of thousands of wrong items is told the first few: the answer stays small.
  const more = reasons.length - SENTENCES_SAID;
  return more > 0
    ? `${reasons.slice(0, SENTENCES_SAID).join("; ")}; and ${more} more`
    : reasons.join("; ");
}

const SENTENCES_SAID = 10;

/**
 * One sentence per failure, in ajv's order. ajv pushes a choice's branch errors just before
 * its own (and drops them when a branch passes), so each choice takes the run of errors before
 * it that lie in its branches: one pass from the end, linear in the errors whatever the body.
 */
function explain(errors: readonly ErrorObject[]): string[] {
  const said: string[][] = [];
  for (let at = errors.length - 1; at >= 0; at--) {
    const error = errors[at] as ErrorObject;
    if (isChoice(error)) {
      let start = at;
      while (start > 0 && inBranchOf(errors[start - 1] as ErrorObject, error)) start--;
      said.push(explainChoice(error, errors.slice(start, at)));
      at = start;
    } else if (error.keyword !== "if" || errors.length === 1) {
      // "must match then/else": the failures inside then/else say why.
      said.push([describeOne(error)]);
    }
  }
  return said.reverse().flat();
}

const isChoice = (error: ErrorObject): boolean =>
  error.keyword === "anyOf" || error.keyword === "oneOf";

/** Whether `error` was raised inside a branch of `choice`, for the same value or a part of it. */
function inBranchOf(error: ErrorObject, choice: ErrorObject): boolean {
  if (error === choice || !error.schemaPath.startsWith(`${choice.schemaPath}/`)) return false;
  const at = choice.instancePath;
  return error.instancePath === at || error.instancePath.startsWith(`${at}/`);
}

/**
 * A failed anyOf/oneOf, said once: alternatives that only require members become "needs at
 * least one of name, tag"; branches none of whose types the value has become one type
 * sentence; otherwise the branch the value came closest to (its own type, the fewest failures
 * at the value itself, then the fewest in all) is explained, ties joined by "or".
 */
function explainChoice(choice: ErrorObject, inside: readonly ErrorObject[]): string[] {
  const { subject } = subjectOf(choice);
  const branches = Array.isArray(choice.schema) ? (choice.schema as unknown[]) : [];
  const owner = subject === "" ? "the request body" : subject;
  const passing = (choice.params as { passingSchemas?: unknown }).passingSchemas;
  if (Array.isArray(passing)) {
    const required = branches.map(requiredOnly);
    return required.every((names) => names !== undefined)
      ? [`${owner} must have ${needed(required, true)}, not several`]
      : [
          `${owner} matches more than one of the alternatives the document gives (oneOf); it must match exactly one`,
        ];
  }
  const groups = branches.map((_, index) =>
    inside.filter((e) => e.schemaPath.startsWith(`${choice.schemaPath}/${index}/`)),
  );
  const fallback = `${owner} matches none of the alternatives the document gives (${choice.keyword})`;
  if (groups.length === 0 || groups.some((group) => group.length === 0)) return [fallback];
  const atValue = (e: ErrorObject) => e.instancePath === choice.instancePath;
  if (groups.every((group) => group.every((e) => e.keyword === "required" && atValue(e)))) {
    return [`${owner} needs ${needed(groups.map(requiredIn), choice.keyword === "oneOf")}`];
  }
  const wrongType = (group: readonly ErrorObject[]) =>
    group.find((e) => e.keyword === "type" && atValue(e));
  const typeErrors = groups.map(wrongType);
  if (typeErrors.every((e) => e !== undefined)) {
    return [typeSentence(choice, typeErrors.flatMap(typesOf), choice.data)];
  }
  const ranked = groups
    .filter((group) => wrongType(group) === undefined)
    .map((group) => ({
      atValue: group.filter(atValue).length,
      sentences: [...new Set(explain(group))],
    }))
    .sort((a, b) => a.atValue - b.atValue || a.sentences.length - b.sentences.length);
  const best = ranked[0];
  if (best === undefined) return [fallback];
  const tied = ranked.filter(
    (r) => r.atValue === best.atValue && r.sentences.length === best.sentences.length,
  );
  return tied.length > 1 && tied.every((r) => r.sentences.length === 1)
    ? [[...new Set(tied.map((r) => r.sentences[0]))].join(", or ")]
    : best.sentences;
}

/** The members a branch that is nothing but `required` asks for; undefined for another. */
function requiredOnly(branch: unknown): string[] | undefined {
  if (typeof branch !== "object" || branch === null) return undefined;
  const { required, ...rest } = branch as { required?: unknown };
  const others = Object.keys(rest).filter((k) => k !== "description" && k !== "title");
  return Array.isArray(required) && others.length === 0 ? required.map(String) : undefined;
}

/** The members a branch that failed on `required` alone asks for, all of them. */
function requiredIn(group: readonly ErrorObject[]): string[] {
  const names = group.flatMap((e) => {
    const required = (e.parentSchema as { required?: unknown } | undefined)?.required;
    return Array.isArray(required) ? required.map(String) : [String(e.params["missingProperty"])];
  });
  return [...new Set(names)];
}

/** "at least one of name, tag"; "id and name, or tag"; "exactly one of …" for a oneOf. */
function needed(options: readonly string[][], exactlyOne: boolean): string {
  if (options.every((names) => names.length === 1)) {
    return `${exactlyOne ? "exactly" : "at least"} one of ${options.map((names) => names[0]).join(", ")}`;
  }
  const either = options.map((names) => listed(names, "and")).join(", or ");
  return exactlyOne ? `${either} (exactly one of these)` : either;
}

const PARAMETER_KINDS = new Set(["path", "query", "header"]);

interface Subject {
  /** Where the value sits: "path", "query", "header", or "requestBody". */
  where: string;
  /** The member path inside it, dotted; empty for the body itself. */
  field: string;
  /** "query parameter limit", "owner.name", or "" for the body itself. */
  subject: string;
  isParameter: boolean;
}

function subjectOf(error: ErrorObject): Subject {
  const [where = "", ...rest] = error.instancePath.split("/").filter((p) => p !== "");
  const field = rest.map(unescapePointer).join(".");
  const isParameter = PARAMETER_KINDS.has(where);
  return {
    where,
    field,
    isParameter,
    subject: isParameter ? `${where} parameter ${field}` : field,
  };
}

function describeOne(error: ErrorObject): string {
  const { where, field, subject, isParameter } = subjectOf(error);
  const params = error.params as Record<string, unknown>;
  const owner = subject === "" ? "the request body" : subject;
  const limit = String(params["limit"]);
  switch (error.keyword) {
    case "required": {
      const missing = String(params["missingProperty"] ?? "");
      if (missing === "requestBody") return "a request body is required";
      if (isParameter || (where === "" && PARAMETER_KINDS.has(missing))) {
        return `${isParameter ? `${where} parameter ${missing}` : `a ${missing} parameter`} is required`;
      }
      return `${joinField(field, missing)} is required`;
    }
    case "additionalProperties": {
      const extra = String(params["additionalProperty"] ?? "");
      return where !== "requestBody"
        ? `${where} parameter "${extra}" is not accepted`
        : `${owner} has an unknown property ${JSON.stringify(extra)}`;
    }
    case "type":
      return typeSentence(error, typesOf(error), error.data);
    case "enum": {
      const values = (params["allowedValues"] as unknown[] | undefined) ?? [];
      return values.length === 1
        ? `${owner} must be ${json(values[0])}`
        : `${owner} must be one of ${shortList(values.map(json))}`;
    }
    case "const":
      return `${owner} must be ${json(params["allowedValue"])}`;
    case "minLength":
    case "maxLength":
      return `${owner} must be ${bound(error.keyword)} ${counted(limit, "character")} long`;
    case "minItems":
    case "maxItems":
      return `${owner} must have ${bound(error.keyword)} ${counted(limit, "item")}`;
    case "minProperties":
    case "maxProperties":
      return `${owner} must have ${bound(error.keyword)} ${counted(limit, "property", "properties")}`;
    case "minimum":
    case "maximum":
      return `${owner} must be ${bound(error.keyword)} ${limit}`;
    case "exclusiveMinimum":
      return `${owner} must be greater than ${limit}`;
    case "exclusiveMaximum":
      return `${owner} must be less than ${limit}`;
    case "multipleOf":
      return `${owner} must be a multiple of ${String(params["multipleOf"])}`;
    case "pattern":
      return `${owner} must match the pattern /${String(params["pattern"])}/`;
    case "format":
      return `${owner} must be ${formatSaid(String(params["format"]))}`;
    case "uniqueItems":
      return `${owner} must not have duplicate items (items ${String(params["j"])} and ${String(params["i"])} are equal)`;
    case "dependencies":
    case "dependentRequired":
      return `${owner} must have ${String(params["missingProperty"])} when it has ${String(params["property"])}`;
    case "not":
      return `${owner} ${ruledOut(error.schema)}`;
    case "false schema":
      return `${owner} is not allowed`;
    default:
      return `${owner} ${error.message ?? "is not valid"}`;
  }
}

/** "must be a string or null (got number)"; for the body, "must be a JSON object, got an array". */
function typeSentence(error: ErrorObject, types: readonly string[], data: unknown): string {
  const { subject } = subjectOf(error);
  const unique = [...new Set(types)];
  return subject === ""
    ? `the request body must be a JSON ${unique.join(" or ")}, got ${withArticle(jsonTypeOf(data))}`
    : `${subject} must be ${listed(unique.map(withArticle), "or")} (got ${jsonTypeOf(data)})`;
}

/** The types a type error allows: a 3.1 type list, or 3.0's `nullable` beside one type. */
function typesOf(error: ErrorObject): string[] {
  const type = error.params["type"];
  const types = Array.isArray(type) ? type.map(String) : String(type).split(",");
  const nullable = (error.parentSchema as { nullable?: unknown } | undefined)?.nullable === true;
  return nullable && !types.includes("null") ? [...types, "null"] : types;
}

/** What a `not` schema rules out, when it is one of the usual shapes. */
function ruledOut(schema: unknown): string {
  const not = (typeof schema === "object" && schema !== null ? schema : {}) as Record<
    string,
    unknown
  >;
  const required = requiredOnly(not);
  if (required !== undefined) return `must not have ${listed(required, "or")}`;
  if ("const" in not) return `must not be ${json(not["const"])}`;
  if (Array.isArray(not["enum"])) return `must not be ${listed(not["enum"].map(json), "or")}`;
  if (typeof not["type"] === "string") return `must not be ${withArticle(not["type"])}`;
  return "matches a schema the document rules out (not)";
}

function formatSaid(format: string): string {
  if (format === "int64") return `an integer from ${INT64_MIN} to ${INT64_MAX}`;
  if (format === "int32") return `an integer from ${-(2 ** 31)} to ${2 ** 31 - 1}`;
  if (format === "byte") return "base64-encoded (format byte)";
  if (format === "uri") return "an absolute URI";
  return `a valid ${format}`;
}

const bound = (keyword: string): string => (keyword.startsWith("min") ? "at least" : "at most");

const counted = (n: string, one: string, many = `${one}s`): string =>
  `${n} ${n === "1" ? one : many}`;

/** "a", "a or b", "a, b or c". */
function listed(items: readonly string[], conjunction: "and" | "or"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)}`;
}

// Enough values to see what is meant; the document has the rest.
const LISTED_VALUES = 10;
const shortList = (values: readonly string[]): string =>
  values.length <= LISTED_VALUES
    ? values.join(", ")
    : `${values.slice(0, LISTED_VALUES).join(", ")}, … (${values.length} in all)`;

const json = (value: unknown): string => JSON.stringify(value) ?? String(value);

const joinField = (parent: string, child: string): string =>
  parent === "" ? child : `${parent}.${child}`;

/** A JSON Pointer segment as the member name it stands for. */
const unescapePointer = (segment: string): string =>
  segment.replaceAll("~1", "/").replaceAll("~0", "~");
