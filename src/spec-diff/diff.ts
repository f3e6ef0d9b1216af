// Compares two OpenAPI documents and says, for each change, who it can break: api-smart-diff
// finds the changes (both documents dereferenced first, so a schema shared by $ref is judged
// where it is used, webhooks included), this file places each one (an operation's parameter,
// body, answer or header; a webhook and its event), and classify.ts judges what changed there.
import { apiCompare, type Diff } from "api-smart-diff";
import dereferenceJsonSchema from "dereference-json-schema";
import {
  ADDITION,
  BREAKING,
  type Bump,
  classify,
  type Flow,
  type Place,
  POSSIBLY,
  type Severity,
  type Verdict,
  WORDING,
  wordingKeyword,
} from "./classify.ts";
import { EVENT_EXTENSION, eventChanged, webhookAddedOrRemoved } from "./webhook-events.ts";

export interface Change {
  severity: Severity;
  bump: Bump;
  /** The operation, e.g. `getPlant`, or the document part, e.g. `info`. */
  operation: string;
  /** One sentence for a reviewer. */
  sentence: string;
  /** The JSON pointer of the change in the dereferenced document. */
  pointer: string;
}

type Json = Record<string, unknown>;

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

export function diffDocuments(before: unknown, after: unknown): Change[] {
  const base = dereference(before);
  const next = dereference(after);
  // Copies: api-smart-diff's merge writes into what it is given, and the rules read both sides.
  const { diffs } = apiCompare(structuredClone(base), structuredClone(next));
  const changes = new Map<string, Change>();
  for (const diff of diffs) {
    for (const change of describe(diff, { before: base, after: next })) {
      if (!changes.has(change.sentence)) changes.set(change.sentence, change);
    }
  }
  return [...changes.values()];
}

function dereference(document: unknown): Json {
  // A copy: dereferenceSync replaces the $refs in place.
  const copy = structuredClone(document) as Json;
  return dereferenceJsonSchema.dereferenceSync(copy as never) as unknown as Json;
}

/** Both documents, dereferenced. */
interface Sides {
  before: Json;
  after: Json;
}

const valueAt = (document: unknown, keys: readonly string[]): unknown =>
  keys.reduce<unknown>((node, key) => (node as Json | undefined)?.[key], document);

function describe(diff: Diff, sides: Sides): Change[] {
  const keys = diff.path.map(String);
  const [section, name, method, ...rest] = keys;
  // Components are judged where they are used; security schemes are used by name, not $ref.
  if (section === "components" && name !== "securitySchemes") return [];
  if (section === "info" && name === "version") return [];
  const operations = section === "paths" || section === "webhooks";
  // A whole section came or went. A path renamed (api-smart-diff matches `/a/{id}` to
  // `/a/{plantId}`) is a change to the section itself, judged below.
  if (operations && name === undefined && diff.action !== "rename") {
    return wholeSection(diff, section, sides);
  }
  if (operations && name !== undefined) {
    const webhook = section === "webhooks";
    if (method === undefined) return wholePath(diff, section, name, sides);
    const inside = METHODS.has(method) ? rest : [method, ...rest];
    const word = wordingKeyword(inside);
    const where = METHODS.has(method) ? label(section, name, method, sides) : `\`${name}\``;
    if (word !== undefined) {
      return [
        change({ ...WORDING, what: `${word} changed`, why: "wording only" }, where, "", keys),
      ];
    }
    if (!METHODS.has(method)) {
      // A webhook's own parameters or servers: every operation of it shares them (api-smart-diff
      // moves a path's into each of its operations).
      return judge(diff, inside, where, webhook, sides, { section, name });
    }
    if (rest.length === 0) return [operationAddedOrRemoved(diff, where, webhook)];
    return judge(diff, rest, where, webhook, sides, { section, name, method });
  }
  const where = `\`${keys.join(".")}\``;
  if (section === "info" || section === "servers" || section === "tags") {
    const verdict: Verdict = { ...WORDING, what: "changed", why: "documentation only" };
    return [change(verdict, where, "", keys)];
  }
  return [change(classify(diff, keys, { flow: "read", webhook: false }), where, "", keys)];
}

/** The whole `paths` or `webhooks` section came or went: each of its operations did. */
function wholeSection(diff: Diff, section: string, sides: Sides): Change[] {
  return entries(diff).flatMap((item) => wholePath(item, section, lastKey(item), sides));
}

function wholePath(diff: Diff, section: string, name: string, sides: Sides): Change[] {
  return entries(diff)
    .filter((operation) => METHODS.has(lastKey(operation)))
    .map((operation) =>
      operationAddedOrRemoved(
        operation,
        label(section, name, lastKey(operation), sides),
        section === "webhooks",
      ),
    );
}

/**
 * What `diff` did to each entry of the object or array it added, removed or replaced as a whole
 * (api-smart-diff reports an object one side lacks as one change): each is placed on its own.
 */
function entries(diff: Diff): Diff[] {
  const before = objectOf(diff.before);
  const after = objectOf(diff.after);
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].map(
    (key) =>
      ({
        ...diff,
        path: [...diff.path, key],
        action: Object.hasOwn(after, key) ? "add" : "remove",
        before: before[key],
        after: after[key],
      }) as Diff,
  );
}

const objectOf = (value: unknown): Json =>
  typeof value === "object" && value !== null ? (value as Json) : {};

const lastKey = (diff: Diff): string => String(diff.path.at(-1));

function operationAddedOrRemoved(diff: Diff, operation: string, webhook: boolean): Change {
  const keys = diff.path.map(String);
  if (webhook) return change(webhookAddedOrRemoved(diff), operation, "", keys);
  const verdict: Verdict =
    diff.action === "remove"
      ? { ...BREAKING, what: "operation removed", why: "breaking for clients that call it" }
      : diff.action === "add"
        ? { ...ADDITION, what: "operation added", why: "compatible" }
        : { ...BREAKING, what: "operation replaced", why: "breaking" };
  return change(verdict, operation, "", keys);
}

function label(section: string, name: string, method: string, sides: Sides): string {
  const find = (document: Json): unknown =>
    ((document[section] as Json | undefined)?.[name] as Json | undefined)?.[method];
  const operation = (find(sides.after) ?? find(sides.before)) as Json | undefined;
  const id =
    typeof operation?.["operationId"] === "string"
      ? `\`${String(operation["operationId"])}\``
      : undefined;
  const fallback = `\`${method.toUpperCase()} ${name}\``;
  return section === "webhooks" ? `webhook ${id ?? fallback}` : (id ?? fallback);
}

/** The parameter list, the answers, an answer's headers or its media types, as a whole. */
function wholeList(rest: readonly string[]): boolean {
  const [part, ...inner] = rest;
  if (inner.length === 0) return part === "parameters" || part === "responses";
  return (
    part === "responses" && inner.length === 2 && (inner[1] === "headers" || inner[1] === "content")
  );
}

/** The places of a change inside an operation, and its verdict at each. */
function judge(
  diff: Diff,
  rest: string[],
  operation: string,
  webhook: boolean,
  sides: Sides,
  at: OperationAt,
): Change[] {
  if (diff.action === "rename" || !wholeList(rest)) {
    return [judgeOne(diff, rest, operation, webhook, sides, at)];
  }
  return entries(diff).flatMap((one) =>
    judge(one, [...rest, lastKey(one)], operation, webhook, sides, at),
  );
}

/** Where an operation is: its path or webhook, and its method (none for the path's own parts). */
interface OperationAt {
  section: string;
  name: string;
  method?: string;
}

function judgeOne(
  diff: Diff,
  rest: string[],
  operation: string,
  webhook: boolean,
  sides: Sides,
  at: OperationAt,
): Change {
  const keys = diff.path.map(String);
  const [part, ...inner] = rest;
  // The roles are reversed in a webhook: the service sends the request, the receiver reads it.
  const sent: Flow = webhook ? "read" : "written";
  const answered: Flow = webhook ? "written" : "read";
  const place = (flow: Flow, parameter = false): Place => ({
    flow,
    webhook,
    parameter,
    owner: owner(keys, sides),
  });
  if (part === EVENT_EXTENSION && webhook) return change(eventChanged(diff), operation, "", keys);
  if (part === "responses") {
    // A whole list of answers was split into its entries (judge), so the status is there.
    const [status, sub, header, ...tail] = inner as [string, string?, ...string[]];
    if (sub === undefined) return statusChange(diff, operation, status, answered, webhook, keys);
    if (sub === "headers" && header !== undefined) {
      const where = `${operation} ${status} header \`${header}\``;
      if (tail.length === 0) return headerAddedOrRemoved(diff, where, answered, webhook, keys);
      if (tail[0] === "required") {
        return change(requiredChange(diff, answered, webhook), where, "", keys);
      }
      return change(classify(diff, tail, place(answered)), where, field(tail), keys);
    }
    if (sub === "content" && header !== undefined && tail.length === 0) {
      return mediaTypeChange(diff, `${operation} ${status}`, header, answered, webhook, keys);
    }
    const where = `${operation} ${status}`;
    return change(classify(diff, inner, place(answered)), where, field(inner), keys);
  }
  if (part === "parameters") {
    const [index, ...tail] = inner as [string, ...string[]];
    const parameter = parameterAt(diff, at, Number(index), tail, sides);
    const where = `${operation} ${parameter.in} parameter \`${parameter.name}\``;
    if (tail.length === 0) return parameterAddedOrRemoved(diff, where, parameter, sent, keys);
    if (tail[0] === "required") return change(requiredChange(diff, sent, webhook), where, "", keys);
    return change(classify(diff, tail, place(sent, true)), where, field(tail), keys);
  }
  if (part === "requestBody") {
    const where = `${operation} request body`;
    if (inner.length === 0) return requestBodyAddedOrRemoved(diff, where, sent, webhook, keys);
    if (inner[0] === "content" && inner[1] !== undefined && inner.length === 2) {
      return mediaTypeChange(diff, where, inner[1], sent, webhook, keys);
    }
    if (inner[0] === "required")
      return change(requiredChange(diff, sent, webhook), where, "", keys);
    return change(classify(diff, inner, place(sent)), where, field(inner), keys);
  }
  return change(classify(diff, rest, place(sent)), operation, "", keys);
}

/**
 * The schema holding a changed enum, on both sides: api-smart-diff reports an enum added to a
 * schema value by value, and only the schema says the whole keyword came. Only enums read it.
 */
function owner(keys: readonly string[], sides: Sides): NonNullable<Place["owner"]> {
  const prefix = keys.slice(0, keys.lastIndexOf("enum"));
  return { before: valueAt(sides.before, prefix), after: valueAt(sides.after, prefix) };
}

/**
 * The member a change is in (`[].tag`, `tags[]`), from the keys down to it: the name after each
 * `properties` and `[]` for each `items`, short of the changed keyword itself and of a member
 * added or removed (`properties`, then its name, at the end).
 */
function field(keys: readonly string[]): string {
  const names: string[] = [];
  for (let i = 0; i < keys.length - 1; i++) {
    if (keys[i] === "properties" && i < keys.length - 2) names.push(String(keys[++i]));
    else if (keys[i] === "items") names.push("[]");
  }
  return names.join(".").replaceAll(".[]", "[]");
}

interface ParameterFacts {
  name: string;
  in: string;
  required: boolean;
}

/**
 * The parameter a change is in. A parameter added or removed is the change's own value; a change
 * inside one is numbered as api-smart-diff lists the parameters before the change: the
 * operation's own, then its path's (transformPathItems).
 */
function parameterAt(
  diff: Diff,
  at: OperationAt,
  index: number,
  tail: readonly string[],
  sides: Sides,
): ParameterFacts {
  const item = valueAt(sides.before, [at.section, at.name]) as Json | undefined;
  const shared = (item?.["parameters"] ?? []) as unknown[];
  const own = (valueAt(item, [at.method ?? "", "parameters"]) ?? []) as unknown[];
  const parameter = (
    tail.length === 0 ? (diff.after ?? diff.before) : [...own, ...shared][index]
  ) as Json | undefined;
  return {
    name: String(parameter?.["name"] ?? "?"),
    in: String(parameter?.["in"] ?? "?"),
    required: parameter?.["required"] === true,
  };
}

/** `required: true` set or dropped on a parameter, a request body or an answer's header. */
function requiredChange(diff: Diff, flow: Flow, webhook: boolean): Verdict {
  const nowRequired = diff.after === true;
  const reader = webhook ? "receivers" : "clients";
  if (flow === "written") {
    return nowRequired
      ? { ...BREAKING, what: "now required", why: `breaking for ${reader} that leave it out` }
      : { ...ADDITION, what: "now optional", why: "compatible" };
  }
  return nowRequired
    ? { ...ADDITION, what: "now always sent", why: "compatible" }
    : { ...BREAKING, what: "now optional", why: `breaking for ${reader} that read it` };
}

function statusChange(
  diff: Diff,
  operation: string,
  status: string,
  flow: Flow,
  webhook: boolean,
  keys: string[],
): Change {
  const reader = webhook ? "receivers" : "clients";
  let verdict: Verdict;
  if (diff.action === "add") {
    verdict = { ...ADDITION, what: "status added", why: "compatible" };
  } else if (flow === "read") {
    verdict = { ...BREAKING, what: "status removed", why: `breaking for ${reader} that handle it` };
  } else {
    verdict = {
      ...POSSIBLY,
      what: "status removed",
      why: `possibly breaking for ${reader} that answer it`,
    };
  }
  return change(verdict, `${operation} ${status}`, "", keys);
}

function mediaTypeChange(
  diff: Diff,
  where: string,
  mediaType: string,
  flow: Flow,
  webhook: boolean,
  keys: string[],
): Change {
  const who = webhook ? "receivers" : "clients";
  const doing = flow === "read" ? "read" : "send";
  // Replaced as a whole (by something not a media type object) is the old one removed.
  const verdict: Verdict =
    diff.action === "add"
      ? { ...ADDITION, what: `media type \`${mediaType}\` added`, why: "compatible" }
      : {
          ...BREAKING,
          what: `media type \`${mediaType}\` removed`,
          why: `breaking for ${who} that ${doing} it`,
        };
  return change(verdict, where, "", keys);
}

function headerAddedOrRemoved(
  diff: Diff,
  where: string,
  flow: Flow,
  webhook: boolean,
  keys: string[],
): Change {
  const reader = webhook ? "receivers" : "clients";
  const wasRequired = (diff.before as Json | undefined)?.["required"] === true;
  let verdict: Verdict;
  if (diff.action === "add") verdict = { ...ADDITION, what: "header added", why: "compatible" };
  else if (flow === "read" && wasRequired) {
    verdict = { ...BREAKING, what: "header removed", why: `breaking for ${reader} that read it` };
  } else {
    // oasdiff: optional-response-header-removed (WARN).
    verdict = { ...POSSIBLY, what: "header removed", why: `possibly breaking for ${reader}` };
  }
  return change(verdict, where, "", keys);
}

function requestBodyAddedOrRemoved(
  diff: Diff,
  where: string,
  flow: Flow,
  webhook: boolean,
  keys: string[],
): Change {
  const body = (diff.action === "remove" ? diff.before : diff.after) as Json | undefined;
  if (diff.action === "add") {
    return change(
      body?.["required"] === true && flow === "written"
        ? { ...BREAKING, what: "added, required", why: "breaking for clients that leave it out" }
        : { ...ADDITION, what: "added", why: "compatible" },
      where,
      "",
      keys,
    );
  }
  const reader = webhook ? "receivers that read it" : "clients that send it";
  return change({ ...BREAKING, what: "removed", why: `breaking for ${reader}` }, where, "", keys);
}

function parameterAddedOrRemoved(
  diff: Diff,
  where: string,
  parameter: ParameterFacts,
  flow: Flow,
  keys: string[],
): Change {
  // A parameter replaced as a whole (by something not a parameter) is the old one removed.
  let verdict: Verdict;
  if (diff.action !== "add") {
    // oasdiff: request-parameter-removed is a WARN; this server refuses a query parameter an
    // operation does not take, so a client that still sends it is refused.
    verdict =
      flow === "written"
        ? { ...BREAKING, what: "removed", why: "breaking for clients that send it" }
        : { ...BREAKING, what: "removed", why: "breaking for receivers that read it" };
  } else if (parameter.required && flow === "written") {
    verdict = {
      ...BREAKING,
      what: "added, required",
      why: "breaking for clients that leave it out",
    };
  } else {
    verdict = { ...ADDITION, what: "added", why: "compatible" };
  }
  return change(verdict, where, "", keys);
}

function change(verdict: Verdict, where: string, field: string, keys: string[]): Change {
  const at = field === "" ? where : `${where} \`${field}\``;
  return {
    severity: verdict.severity,
    bump: verdict.bump,
    operation:
      where
        .split(" ")
        .find((word) => word.startsWith("`"))
        ?.replaceAll("`", "") ?? where,
    sentence: `${at}: ${verdict.what} — ${verdict.why}`,
    pointer: `/${keys.map((k) => k.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`,
  };
}
