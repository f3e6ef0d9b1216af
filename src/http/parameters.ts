// An operation's parameters (path, query, header) read from their text into the types their
// schemas give, strictly, before anything validates them: an integer is a canonical decimal
// (`1e2`, `0x10`, `+1`, `01`, ` 1` are refused, not read as some number), an int64 becomes an
// exact bigint checked against its exact range, a default fills what was not sent. The value
// read is the value validated and the value the handler gets. Built once per operation from the
// document, so every operation's parameters get the same rules whatever they are called.

import { canonicalInteger, INT64_MAX, INT64_MIN } from "../text/int64.ts";
import { queryEncodingProblem } from "../text/request-target.ts";

export type ParameterIn = "path" | "query" | "header";

interface ParameterSchema {
  type?: unknown;
  format?: unknown;
  default?: unknown;
  items?: ParameterSchema;
}

export interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  schema?: ParameterSchema;
}

/** One parameter's value (bigint for an int64), or why it cannot be read. */
type Reading = { ok: true; value: unknown } | { ok: false; message: string };

export interface ParameterValues {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
}

/** What Fastify parsed from the request: strings, or lists of strings for a repeat. */
export interface RawParameters {
  /** The request target as received, whose query is checked for malformed percent-encoding. */
  target: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
}

export type ReadParameters = (
  raw: RawParameters,
) => { ok: true; values: ParameterValues } | { ok: false; message: string };

const SUPPORTED_IN = new Set<string>(["path", "query", "header"]);

/** The reader for `parameters` (dereferenced); throws at start-up for a kind it cannot read. */
export function parameterReader(
  operationId: string,
  parameters: readonly ParameterObject[],
): ReadParameters {
  for (const parameter of parameters) {
    if (!SUPPORTED_IN.has(parameter.in)) {
      throw new Error(
        `${operationId}: ${parameter.in} parameters (${parameter.name}) are not supported`,
      );
    }
  }
  const queryNames = parameters.filter((p) => p.in === "query").map((p) => p.name);
  const accepted =
    queryNames.length === 0
      ? "this operation takes none"
      : `this operation takes ${queryNames.join(", ")}`;
  const readers = parameters.map((parameter) => ({
    parameter,
    read: readerFor(operationId, parameter),
  }));

  return (raw) => {
    const encoding = queryEncodingProblem(raw.target);
    if (encoding !== undefined) return { ok: false, message: encoding };
    for (const name of Object.keys(raw.query)) {
      if (!queryNames.includes(name)) {
        return { ok: false, message: `query parameter "${name}" is not accepted: ${accepted}` };
      }
    }
    const values: ParameterValues = { path: {}, query: {}, header: {} };
    const problems: string[] = [];
    for (const { parameter, read } of readers) {
      const where = parameter.in as ParameterIn;
      const source = where === "path" ? raw.params : where === "query" ? raw.query : raw.headers;
      const name = where === "header" ? parameter.name.toLowerCase() : parameter.name;
      const reading = read(source[name]);
      if (!reading.ok) problems.push(reading.message);
      else if (reading.value !== undefined) values[where][parameter.name] = reading.value;
    }
    return problems.length === 0
      ? { ok: true, values }
      : { ok: false, message: problems.join("; ") };
  };
}

function readerFor(operationId: string, parameter: ParameterObject): (text: unknown) => Reading {
  const label = `${parameter.in} parameter ${parameter.name}`;
  const schema = parameter.schema ?? {};
  const many = schema.type === "array";
  const readOne = scalarReader(operationId, parameter, many ? schema.items : schema);
  const fallback = schema.default === undefined ? undefined : readDefault(schema);
  return (text) => {
    if (text === undefined) {
      if (parameter.required === true) return { ok: false, message: `${label} is required` };
      return { ok: true, value: fallback };
    }
    const texts = Array.isArray(text) ? text.map(String) : [String(text)];
    if (!many && texts.length > 1)
      return { ok: false, message: `${label} is given more than once` };
    const values: unknown[] = [];
    for (const one of texts) {
      const reading = readOne(one);
      if (!reading.ok) return { ok: false, message: `${label} ${reading.message}` };
      values.push(reading.value);
    }
    return { ok: true, value: many ? values : values[0] };
  };
}

/** A default as the handler should get it: an int64 default as a bigint. */
function readDefault(schema: ParameterSchema): unknown {
  const isInt64 = schema.type === "integer" && schema.format === "int64";
  return isInt64 && typeof schema.default === "number" ? BigInt(schema.default) : schema.default;
}

type ReadOne = (text: string) => Reading;

function scalarReader(
  operationId: string,
  parameter: ParameterObject,
  schema: ParameterSchema | undefined,
): ReadOne {
  const quoted = (text: string) => JSON.stringify(text);
  switch (schema?.type) {
    case "integer":
      return schema.format === "int64" ? readInt64 : readSafeInteger;
    case "number":
      return (text) => {
        const value = DECIMAL.test(text) ? Number(text) : Number.NaN;
        return Number.isFinite(value)
          ? { ok: true, value }
          : { ok: false, message: `must be a decimal number, got ${quoted(text)}` };
      };
    case "boolean":
      return (text) =>
        text === "true" || text === "false"
          ? { ok: true, value: text === "true" }
          : { ok: false, message: `must be true or false, got ${quoted(text)}` };
    case "string":
    case undefined:
      return (text) => ({ ok: true, value: text });
    default:
      throw new Error(
        `${operationId}: parameter ${parameter.name} of type ${String(schema?.type)} is not supported`,
      );
  }
}

// Linear: no part can match what another part matches.
const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

const readInt64: ReadOne = (text) => {
  const value = canonicalInteger(text);
  if (value === undefined || value < INT64_MIN || value > INT64_MAX) {
    return {
      ok: false,
      message: `must be a decimal integer from ${INT64_MIN} to ${INT64_MAX}, got ${JSON.stringify(text)}`,
    };
  }
  return { ok: true, value };
};

const readSafeInteger: ReadOne = (text) => {
  const value = canonicalInteger(text);
  if (value === undefined || value < -Number.MAX_SAFE_INTEGER || value > Number.MAX_SAFE_INTEGER) {
    return { ok: false, message: `must be a decimal integer, got ${JSON.stringify(text)}` };
  }
  return { ok: true, value: Number(value) };
};
