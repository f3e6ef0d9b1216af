// Requests made from an operation's schemas (fast-check arbitraries), for the fuzz suite and
// the conformance run: each parameter and the body valid for its schema, or one of them made
// invalid, of the values schema-values.ts makes.
import fc from "fast-check";
import { toJson } from "../client/exact-json.ts";
import { bodyOf } from "./examples.ts";
import type { DocumentedOperation } from "./operations.ts";
import { type Schema, SchemaValues, typeOf } from "./schema-values.ts";

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** What was made invalid, for the failure message; undefined when every part is valid. */
  invalid?: string;
}

/** A parameter as the wire carries it: text. */
interface Part {
  what: string;
  valid: fc.Arbitrary<string | undefined>;
  /** Text the schema refuses; undefined where any text is valid (an unbounded string). */
  invalid: fc.Arbitrary<string> | undefined;
}

/** Visible ASCII: what a header value can carry. */
const headerText = fc.stringMatching(/^[\x21-\x7e]{0,40}$/);

/** Values and requests made from the schemas of `document` (its components resolve $refs). */
export function schemaArbitraries(
  document: object,
  // Compiles the document's patterns, where the caller allows it (SchemaValues says why).
  patternOf?: (source: string) => RegExp,
) {
  const components = ((document as { components?: { schemas?: Record<string, Schema> } }).components
    ?.schemas ?? {}) as Record<string, Schema>;
  const values = new SchemaValues(components, patternOf);
  return {
    validValue: (raw: Schema, longest: number) => values.validValue(raw, longest),
    invalidValue: (raw: Schema) => values.invalidValue(raw),
    fuzzRequest: (operation: DocumentedOperation, bodyLimit: number) =>
      fuzzRequest(values, operation, bodyLimit),
  };
}

function parameterPart(
  values: SchemaValues,
  parameter: DocumentedOperation["parameters"][number],
): Part {
  const schema = values.flat((parameter as { schema?: Schema }).schema ?? {});
  const required =
    parameter.in === "path" || (parameter as { required?: boolean }).required === true;
  const type = typeOf(schema);
  const text =
    parameter.in === "header" && type === "string" && schema.enum === undefined
      ? headerText.filter((t) => t.length <= (schema.maxLength ?? 1024))
      : values.validValue(schema, 200).map(String);
  // A path segment that is empty or a dot segment is another path, not a value.
  const usable = parameter.in === "path" ? text.filter((t) => !["", ".", ".."].includes(t)) : text;
  const refused: fc.Arbitrary<string>[] = [];
  if (type === "integer") {
    refused.push(
      fc.constantFrom("text", "1.5", "1e2", "0x10", "+1", "01", "true", "[1]"),
      values
        .invalidValue({ ...schema, type: "integer" })
        .filter((value) => typeof value === "bigint")
        .map(String),
    );
  }
  if (type === "string" && schema.maxLength !== undefined) {
    refused.push(fc.constant("x".repeat(schema.maxLength + 1)));
  }
  return {
    what: `${parameter.in} parameter ${parameter.name}`,
    valid: required ? usable : fc.option(usable, { nil: undefined }),
    invalid: refused.length === 0 ? undefined : fc.oneof(...refused),
  };
}

/**
 * Requests for one operation: every parameter and the body valid, or exactly one of them
 * made invalid. `bodyLimit` bounds the longest strings of a body.
 */
function fuzzRequest(
  values: SchemaValues,
  operation: DocumentedOperation,
  bodyLimit: number,
): fc.Arbitrary<FuzzRequest> {
  const parameters = operation.parameters.filter((p) =>
    ["path", "query", "header"].includes(p.in ?? ""),
  );
  const media = bodyOf(operation).media;
  const bodySchema =
    media === undefined
      ? undefined
      : (
          operation.operation as {
            requestBody?: { content: Record<string, { schema?: Schema }> };
          }
        ).requestBody?.content[media]?.schema;
  // Room for the JSON around the strings; the rest of the limit goes to them.
  const longest = Math.floor((bodyLimit - 512) / 2);
  const parts: Part[] = [
    ...parameters.map((parameter) => parameterPart(values, parameter)),
    ...(bodySchema === undefined
      ? []
      : [
          {
            what: "the body",
            valid: values.validValue(bodySchema, longest).map(toJson),
            invalid: values.invalidValue(bodySchema).map(toJson),
          },
        ]),
  ];
  const spoilable = parts.flatMap((part, index) => (part.invalid === undefined ? [] : [index]));
  const spoil =
    spoilable.length === 0
      ? fc.constant(undefined)
      : fc.option(fc.constantFrom(...spoilable), { nil: undefined, freq: 2 });
  const refused = parts.map((part) => part.invalid ?? fc.constant(""));
  return fc
    .tuple(fc.tuple(...parts.map((part) => part.valid)), spoil, fc.tuple(...refused))
    .map(([given, spoiled, invalid]) => {
      const chosen: (string | undefined)[] = [...given];
      if (spoiled !== undefined) chosen[spoiled] = invalid[spoiled];
      const path = operation.template.replace(/\{([^{}/]+)\}/g, (_whole, name: string) => {
        const index = parameters.findIndex((p) => p.in === "path" && p.name === name);
        return encodeURIComponent(chosen[index] ?? "");
      });
      const query = new URLSearchParams();
      const headers: Record<string, string> = {};
      parameters.forEach((parameter, index) => {
        const value = chosen[index];
        if (value === undefined) return;
        if (parameter.in === "query") query.set(parameter.name ?? "", value);
        if (parameter.in === "header") headers[parameter.name ?? ""] = value;
      });
      const body = bodySchema === undefined ? undefined : chosen.at(-1);
      return {
        method: operation.method,
        url: query.size === 0 ? path : `${path}?${query}`,
        headers: { ...headers, ...(body === undefined ? {} : { "content-type": media ?? "" }) },
        ...(body === undefined ? {} : { body }),
        ...(spoiled === undefined ? {} : { invalid: parts[spoiled]?.what ?? "" }),
      };
    });
}
