// Compares two OpenAPI documents and says, for each change, who it can break: api-smart-diff
// finds the changes (both documents dereferenced first, so a schema shared by $ref is judged
// where it is used, webhooks included), and classify.ts judges them by where they are.
import { apiCompare, type Diff } from "api-smart-diff";
import dereferenceJsonSchema from "dereference-json-schema";
import { type Bump, classify, type Flow, type Severity, type Verdict } from "./classify.ts";

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
  const { diffs } = apiCompare(base, next);
  const changes = new Map<string, Change>();
  for (const diff of diffs) {
    for (const change of describe(diff, base, next)) {
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

function describe(diff: Diff, before: Json, after: Json): Change[] {
  const keys = diff.path.map(String);
  const [section, name, method, ...rest] = keys;
  // Components are judged where they are used; security schemes are used by name, not $ref.
  if (section === "components" && name !== "securitySchemes") return [];
  if (section === "info" && name === "version") return [];
  if ((section === "paths" || section === "webhooks") && name !== undefined) {
    const webhook = section === "webhooks";
    if (method === undefined) return wholePath(diff, section, name, before, after);
    if (!METHODS.has(method)) {
      // Path-level parameters, summary or servers: every operation of the path shares them.
      return [judge(diff, [method, ...rest], `\`${name}\``, webhook, before, after, section, name)];
    }
    const operation = label(section, name, method, before, after);
    if (rest.length === 0) return [operationAddedOrRemoved(diff, operation)];
    return [judge(diff, rest, operation, webhook, before, after, section, name, method)];
  }
  const where = `\`${keys.join(".")}\``;
  if (section === "info" || section === "servers" || section === "tags") {
    const verdict: Verdict = {
      severity: "compatible",
      bump: "patch",
      what: "changed",
      why: "documentation only",
    };
    return [change(verdict, where, "", keys)];
  }
  return [change(classify(diff, keys, { flow: "read", webhook: false }), where, "", keys)];
}

function wholePath(diff: Diff, section: string, name: string, before: Json, after: Json): Change[] {
  const item = (diff.action === "remove" ? diff.before : diff.after) as Json | undefined;
  return Object.keys(item ?? {})
    .filter((method) => METHODS.has(method))
    .map((method) =>
      operationAddedOrRemoved(diff, label(section, name, method, before, after), [method]),
    );
}

function operationAddedOrRemoved(diff: Diff, operation: string, extra: string[] = []): Change {
  const keys = [...diff.path.map(String), ...extra];
  const verdict: Verdict =
    diff.action === "remove"
      ? {
          severity: "breaking",
          bump: "major",
          what: "operation removed",
          why: "breaking for clients that call it",
        }
      : diff.action === "add"
        ? { severity: "compatible", bump: "minor", what: "operation added", why: "compatible" }
        : { severity: "breaking", bump: "major", what: "operation replaced", why: "breaking" };
  return change(verdict, operation, "", keys);
}

function label(section: string, name: string, method: string, before: Json, after: Json): string {
  const find = (document: Json): unknown =>
    ((document[section] as Json | undefined)?.[name] as Json | undefined)?.[method];
  const operation = (find(after) ?? find(before)) as Json | undefined;
  const id =
    typeof operation?.["operationId"] === "string"
      ? `\`${String(operation["operationId"])}\``
      : undefined;
  const fallback = `\`${method.toUpperCase()} ${name}\``;
  return section === "webhooks" ? `webhook ${id ?? fallback}` : (id ?? fallback);
}

function judge(
  diff: Diff,
  rest: string[],
  operation: string,
  webhook: boolean,
  before: Json,
  after: Json,
  ...at: string[]
): Change {
  const keys = diff.path.map(String);
  const [part, ...inner] = rest;
  // The roles are reversed in a webhook: the service sends the request, the receiver reads it.
  const sent: Flow = webhook ? "read" : "written";
  const answered: Flow = webhook ? "written" : "read";
  if (part === "responses") {
    const [status, sub, header, ...tail] = inner;
    if (sub === undefined)
      return statusChange(diff, operation, status ?? "", answered, webhook, keys);
    if (sub === "headers" && header !== undefined && tail.length === 0) {
      return headerChange(diff, operation, `${status} header \`${header}\``, answered, keys);
    }
    if (sub === "content" && header !== undefined && tail.length === 0) {
      return mediaTypeChange(diff, `${operation} ${status}`, header, answered, webhook, keys);
    }
    const { field, schemaKeys } = schemaPlace(inner.slice(3));
    const where = `${operation} ${status}${sub === "headers" ? ` header \`${header}\`` : ""}`;
    return change(classify(diff, schemaKeys, { flow: answered, webhook }), where, field, keys);
  }
  if (part === "parameters") {
    const [index, ...tail] = inner;
    const parameter = parameterAt(diff, [...at, "parameters", index ?? ""], before, after);
    const where = `${operation} ${parameter.in} parameter \`${parameter.name}\``;
    if (tail.length === 0)
      return parameterAddedOrRemoved(diff, where, parameter.required, sent, keys);
    if (tail[0] === "required" && tail.length === 1) {
      const nowRequired = diff.after === true;
      const verdict: Verdict =
        sent === "written" && nowRequired
          ? {
              severity: "breaking",
              bump: "major",
              what: "now required",
              why: "breaking for clients that leave it out",
            }
          : {
              severity: "compatible",
              bump: "minor",
              what: nowRequired ? "now required" : "now optional",
              why: "compatible",
            };
      return change(verdict, where, "", keys);
    }
    const { field, schemaKeys } = schemaPlace(tail[0] === "schema" ? tail.slice(1) : tail);
    return change(classify(diff, schemaKeys, { flow: sent, webhook }), where, field, keys);
  }
  if (part === "requestBody") {
    if (inner[0] === "content" && inner[1] !== undefined && inner.length === 2) {
      return mediaTypeChange(diff, `${operation} request body`, inner[1], sent, webhook, keys);
    }
    if (inner[0] === "required" && inner.length === 1) {
      return parameterAddedOrRemoved(
        { ...diff, action: diff.after === true ? "add" : "remove" },
        `${operation} request body`,
        true,
        sent,
        keys,
      );
    }
    const { field, schemaKeys } = schemaPlace(inner[0] === "content" ? inner.slice(3) : inner);
    return change(
      classify(diff, schemaKeys, { flow: sent, webhook }),
      `${operation} request body`,
      field,
      keys,
    );
  }
  return change(classify(diff, rest, { flow: sent, webhook }), operation, "", keys);
}

/** The member a schema keyword belongs to (`[].tag`), from the keys inside the schema. */
function schemaPlace(schemaKeys: string[]): { field: string; schemaKeys: string[] } {
  const names: string[] = [];
  for (let i = 0; i < schemaKeys.length - 2; i++) {
    const key = schemaKeys[i];
    if (key === "properties") names.push(schemaKeys[++i] ?? "");
    else if (key === "items") names.push("[]");
  }
  return { field: names.join(".").replaceAll(".[]", "[]"), schemaKeys };
}

function parameterAt(
  diff: Diff,
  at: string[],
  before: Json,
  after: Json,
): { name: string; in: string; required: boolean } {
  const from = (document: Json): Json | undefined => {
    let value: unknown = document;
    for (const key of at) value = (value as Json | undefined)?.[key];
    return value as Json | undefined;
  };
  const whole = diff.path.length === at.length ? (diff.after ?? diff.before) : undefined;
  const parameter = (whole ??
    (diff.action === "add" ? from(after) : from(before)) ??
    from(after)) as Json | undefined;
  return {
    name: String(parameter?.["name"] ?? "?"),
    in: String(parameter?.["in"] ?? "?"),
    required: parameter?.["required"] === true,
  };
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
    verdict = { severity: "compatible", bump: "minor", what: "status added", why: "compatible" };
  } else if (flow === "read") {
    verdict = {
      severity: "breaking",
      bump: "major",
      what: "status removed",
      why: `breaking for ${reader} that handle it`,
    };
  } else {
    verdict = {
      severity: "possibly breaking",
      bump: "minor",
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
  const verdict: Verdict =
    diff.action === "add"
      ? {
          severity: "compatible",
          bump: "minor",
          what: `media type \`${mediaType}\` added`,
          why: "compatible",
        }
      : {
          severity: "breaking",
          bump: "major",
          what: `media type \`${mediaType}\` ${diff.action === "remove" ? "removed" : "replaced"}`,
          why: `breaking for ${who} that ${doing} it`,
        };
  return change(verdict, where, "", keys);
}

function headerChange(
  diff: Diff,
  operation: string,
  where: string,
  flow: Flow,
  keys: string[],
): Change {
  const verdict: Verdict =
    diff.action === "add"
      ? { severity: "compatible", bump: "minor", what: "header added", why: "compatible" }
      : flow === "read"
        ? {
            severity: "breaking",
            bump: "major",
            what: "header removed",
            why: "breaking for clients that read it",
          }
        : {
            severity: "possibly breaking",
            bump: "minor",
            what: "header removed",
            why: "possibly breaking",
          };
  return change(verdict, `${operation} ${where}`, "", keys);
}

function parameterAddedOrRemoved(
  diff: Diff,
  where: string,
  required: boolean,
  flow: Flow,
  keys: string[],
): Change {
  let verdict: Verdict;
  if (diff.action === "remove") {
    verdict =
      flow === "written"
        ? {
            severity: "breaking",
            bump: "major",
            what: "removed",
            why: "breaking for clients that send it",
          }
        : {
            severity: "breaking",
            bump: "major",
            what: "removed",
            why: "breaking for receivers that read it",
          };
  } else if (diff.action === "add" && required && flow === "written") {
    verdict = {
      severity: "breaking",
      bump: "major",
      what: "added, required",
      why: "breaking for clients that leave it out",
    };
  } else {
    verdict = {
      severity: "compatible",
      bump: "minor",
      what: diff.action === "add" ? "added" : "changed",
      why: "compatible",
    };
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
