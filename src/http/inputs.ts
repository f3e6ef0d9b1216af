// Everything a request gives an operation — path, query and header parameters, and the JSON
// body — read once the caller is authenticated, into the types the document gives them (int64
// as exact bigints), by a reader built once per operation from the document, then checked by
// openapi-backend's compiled validators for the operation and the body's media type (with each
// bigint as a double on the same side of its limits). What passes is what the handler gets.
//
// openapi-backend's validateRequest is not used: it parses the request again from scratch, and
// so would check something else than was read (it coerces "0x10" to 16 for an integer
// parameter, and JSON-parses a body that is a JSON string a second time).
import type { ErrorObject } from "ajv";
import type { Operation } from "openapi-backend";
import { bodyMedia } from "../openapi/body-media.ts";
import type { OperationValidators } from "../openapi/validators.ts";
import { validationStandIn } from "../text/int64.ts";
import { int64Locations } from "../text/int64-locations.ts";
import { describeValidationErrors } from "../text/validation-message.ts";
import { type BodyShape, exactBody, type ParsedBody } from "./body.ts";
import { acceptedMedia, type BodyProblem } from "./media-types.ts";
import {
  type ParameterObject,
  type ParameterValues,
  parameterReader,
  type RawParameters,
} from "./parameters.ts";

/** What a handler gets; typed per operation in src/openapi/operation-types.ts. */
export interface Inputs extends ParameterValues {
  body: unknown;
}

/** What a request brings: its parameters as Fastify parsed them, and its parsed body. */
export interface RawInputs extends RawParameters {
  body: ParsedBody | undefined;
}

export type ReadInputs = (
  raw: RawInputs,
) => { ok: true; typed: Inputs } | { ok: false; problem: BodyProblem };

/** The reader of one operation's inputs, and the shape of its body if it takes one. */
export interface InputReader {
  read: ReadInputs;
  body: BodyShape | undefined;
}

/** The reader of one operation's inputs, checked by its compiled validators. */
export function inputReader(operation: Operation, validators: OperationValidators): InputReader {
  const id = operation.operationId ?? `${operation.method} ${operation.path}`;
  const readParameters = parameterReader(
    id,
    (operation.parameters ?? []) as unknown as ParameterObject[],
  );
  const shape = bodyShape(operation);
  const read: ReadInputs = (raw) => {
    const parameters = readParameters(raw);
    if (!parameters.ok) return { ok: false, problem: { status: 400, message: parameters.message } };
    const body = shape === undefined ? undefined : exactBody(raw.body, shape);
    if (body !== undefined && !body.ok) return { ok: false, problem: body.problem };
    const { path, query, header } = parameters.values;
    // The shape openapi-backend's validators take: parameters by kind, and the body.
    const checked: Record<string, unknown> = {
      path: asDoubles(path),
      query: asDoubles(query),
      header: asDoubles(lowerCased(header)),
      cookie: {},
    };
    if (body !== undefined) checked["requestBody"] = body.forValidation;
    const errors: ErrorObject[] = [];
    const mediaType = raw.body?.kind === "json" ? raw.body.type : undefined;
    const forBody =
      mediaType === undefined ? validators.none : (validators.byType[mediaType] ?? validators.none);
    for (const validate of forBody) {
      if (!validate(checked)) errors.push(...(validate.errors ?? []));
    }
    if (errors.length > 0) {
      return { ok: false, problem: { status: 400, message: describeValidationErrors(errors) } };
    }
    // Path and query too: an id in the path is a write's argument, or a read's.
    const unstorable =
      unstorableText(path, "") ??
      unstorableText(query, "") ??
      (body === undefined ? undefined : unstorableText(body.typed, ""));
    if (unstorable !== undefined)
      return { ok: false, problem: { status: 400, message: unstorable } };
    // Member by member, not spread: V8 built a spread copy in the old generation, garbage only
    // a full collection frees.
    return { ok: true, typed: { path, query, header, body: body?.typed } };
  };
  return { read, body: shape };
}

/**
 * Why inputs hold text no engine can keep exactly, naming the member, or undefined. UTF-8 has
 * no encoding for a lone UTF-16 surrogate (JSON "\ud800" decodes to one), and PostgreSQL text
 * cannot hold NUL; SQLite could, but every engine refuses it alike so that a value accepted on
 * one is accepted on all.
 */
function unstorableText(value: unknown, member: string): string | undefined {
  // A stack, not recursion: a body may nest thousands deep within its 64 KiB.
  const pending: [unknown, string][] = [[value, member]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [held, at] = next;
    if (typeof held === "string") {
      if (!held.isWellFormed()) {
        return `${at} contains an unpaired UTF-16 surrogate, which cannot be stored exactly`;
      }
      if (held.includes("\u0000")) {
        return `${at} contains a NUL character (\\u0000), which cannot be stored exactly`;
      }
    } else if (typeof held === "object" && held !== null) {
      // Pushed last to first, so that the first member in the body is the one named.
      const keys = Object.keys(held);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        pending.push([(held as Record<string, unknown>)[key], at === "" ? key : `${at}.${key}`]);
      }
    }
  }
  return undefined;
}

/** How to read the body of `operation`, from its declared JSON media types; none without one. */
function bodyShape(operation: Operation): BodyShape | undefined {
  const media = bodyMedia(operation);
  const first = media[0];
  if (first === undefined) return undefined;
  const required = (operation.requestBody as { required?: boolean } | undefined)?.required;
  return {
    accepted: acceptedMedia(media.map((m) => m.type)),
    int64: new Map(media.map((m) => [m.type, int64Locations(m.media.schema ?? {})])),
    described: describe(first.media.schema ?? {}),
    required: required === true,
  };
}

/** Header parameters by the names openapi-backend's validators know them by: lower case. */
function lowerCased(values: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const name in values) {
    copy ??= {};
    copy[name.toLowerCase()] = values[name];
  }
  return copy ?? values;
}

/** The values a validator can check: a bigint as a double on the same side of its limits. */
function asDoubles(values: Record<string, unknown>): Record<string, unknown> {
  // Most are left as they are (no bigint, no list): the same object, not a copy.
  for (const name in values) {
    const value = values[name];
    if (typeof value === "bigint" || Array.isArray(value)) return doublesCopy(values);
  }
  return values;
}
function doublesCopy(values: Record<string, unknown>): Record<string, unknown> {
  // A loop rather than entries, map and fromEntries: a path id is a bigint on every GET.
  const copy: Record<string, unknown> = {};
  for (const name in values) {
    const value = values[name];
    copy[name] = Array.isArray(value) ? value.map(asDouble) : asDouble(value);
  }
  return copy;
}
const asDouble = (value: unknown): unknown =>
  typeof value === "bigint" ? validationStandIn(value) : value;

interface Described {
  type?: unknown;
  required?: unknown;
  allOf?: Described[];
}

/**
 * "a JSON object with id and name", from the body schema's type and required members; nothing
 * when the schema gives no single type (an anyOf, a type list), rather than "a JSON value".
 */
export function describe(schema: unknown): string | undefined {
  const parts = [schema as Described, ...((schema as Described).allOf ?? [])];
  const type = parts.map((part) => part.type).find((t) => typeof t === "string");
  if (type === undefined) return undefined;
  const required = parts.flatMap((part) =>
    Array.isArray(part.required) ? part.required.map(String) : [],
  );
  const members =
    required.length === 0
      ? ""
      : ` with ${required.slice(0, -1).join(", ")}${required.length > 1 ? " and " : ""}${required.at(-1)}`;
  return `a JSON ${type}${type === "object" ? members : ""}`;
}
