// Requests made from an operation's schemas (used by the fuzz suite and the conformance run) (fast-check arbitraries): each parameter and body
// valid for its schema, or one of them made invalid. Valid strings include, now and then,
// incompressible ones as long as the schema allows (or as the body limit leaves room for), so
// a store that indexes or compresses them meets the worst case. int64s are bigints, written
// exactly.
import fc from "fast-check";
import { toJson } from "../client/exact-json.ts";
import { bodyOf } from "./examples.ts";
import type { DocumentedOperation } from "./operations.ts";

interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  example?: unknown;
  examples?: unknown[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  minProperties?: number;
  maxProperties?: number;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

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
  // The document's patterns become regular expressions only where the caller allows it: the
  // service's sources build none at run time. Without one, a patterned string takes the
  // schema's examples, and gets no invalid value of its own.
  patternOf?: (source: string) => RegExp,
) {
  const components = ((document as { components?: { schemas?: Record<string, Schema> } }).components
    ?.schemas ?? {}) as Record<string, Schema>;

  /** The schema with $refs followed and allOf merged (properties and required joined). */
  function flat(schema: Schema): Schema {
    const resolved =
      schema.$ref === undefined ? schema : (components[schema.$ref.split("/").at(-1) ?? ""] ?? {});
    if (resolved.allOf === undefined) return resolved;
    const { allOf, ...rest } = resolved;
    const parts = allOf.map(flat);
    return Object.assign({}, rest, ...parts, {
      properties: Object.assign({}, ...parts.map((part) => part.properties)),
      required: parts.flatMap((part) => part.required ?? []),
    });
  }

  const typeOf = (schema: Schema): string | undefined =>
    Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;

  /**
   * Text a store must keep exactly: no NUL and no lone surrogate (those are refused with a 400
   * of their own); now and then as long as allowed, of characters that do not compress.
   */
  function validString(schema: Schema, longest: number): fc.Arbitrary<string> {
    const min = schema.minLength ?? 0;
    // Two bytes a character below: an unbounded string fills its share of the bytes.
    const max = schema.maxLength ?? Math.floor(longest / 2);
    const short = fc
      .string({ unit: "grapheme", minLength: min, maxLength: Math.min(max, 40) })
      .map((text) => text.replaceAll("\u0000", ""))
      .filter((text) => text.length >= min);
    // Two-byte UTF-8 characters at random: random enough that nothing compresses them.
    const incompressible = fc
      .array(fc.integer({ min: 0x80, max: 0x7ff }), { minLength: max, maxLength: max })
      .map((codes) => String.fromCharCode(...codes));
    return fc.oneof({ weight: 9, arbitrary: short }, { weight: 1, arbitrary: incompressible });
  }

  /** Characters a URI carries as they are (RFC 3986 unreserved): random runs of them barely compress. */
  const UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

  /**
   * An absolute http(s) URL (`format: uri`), on an IP address or a name, now and then as long as
   * allowed with a path that does not compress. Names need not resolve: a schema says nothing of DNS.
   */
  function validUri(schema: Schema): fc.Arbitrary<string> {
    const max = schema.maxLength ?? 2048;
    const usual = fc.webUrl({
      validSchemes: ["http", "https"],
      authoritySettings: { withIPv4: true, withPort: true },
      withQueryParameters: true,
    });
    const long = fc
      .tuple(
        fc.constantFrom("http", "https"),
        fc.ipV4(),
        fc.array(fc.constantFrom(...UNRESERVED), { minLength: max, maxLength: max }),
      )
      .map(([scheme, host, path]) => `${scheme}://${host}/${path.join("")}`.slice(0, max));
    return fc.oneof({ weight: 9, arbitrary: usual }, { weight: 1, arbitrary: long });
  }

  /** A string the schema accepts: its format's values or any text, then kept to its pattern and lengths. */
  function validText(schema: Schema, longest: number): fc.Arbitrary<string> {
    const pattern = schema.pattern === undefined ? undefined : patternOf?.(schema.pattern);
    const examples = [
      ...(schema.examples ?? []),
      ...(schema.example === undefined ? [] : [schema.example]),
    ];
    const base =
      schema.format === "uri"
        ? validUri(schema)
        : pattern !== undefined
          ? fc.stringMatching(pattern)
          : schema.pattern !== undefined && examples.length > 0
            ? fc.constantFrom(...examples.map(String))
            : validString(schema, longest);
    return base.filter(
      (text) =>
        (pattern === undefined || pattern.test(text)) &&
        text.length >= (schema.minLength ?? 0) &&
        text.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY) &&
        (schema.format !== "uri" || URL.canParse(text)),
    );
  }

  /** A value the schema accepts. `longest` bounds, in bytes, what the schema leaves unbounded. */
  function validValue(raw: Schema, longest: number): fc.Arbitrary<unknown> {
    const schema = flat(raw);
    const value = validOfType(schema, longest);
    // 3.1's nullable, [type, "null"]: now and then null.
    const nullable = Array.isArray(schema.type) && schema.type.includes("null");
    return nullable ? fc.oneof({ weight: 4, arbitrary: value }, fc.constant(null)) : value;
  }

  function validOfType(schema: Schema, longest: number): fc.Arbitrary<unknown> {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
    const choices = schema.anyOf ?? schema.oneOf;
    if (choices !== undefined) return fc.oneof(...choices.map((c) => validValue(c, longest)));
    switch (typeOf(schema)) {
      case "integer":
        return schema.format === "int64"
          ? fc.bigInt({
              min: BigInt(schema.minimum ?? INT64.min),
              max: BigInt(schema.maximum ?? INT64.max),
            })
          : fc.integer({ min: schema.minimum ?? INT32.min, max: schema.maximum ?? INT32.max });
      case "number":
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case "boolean":
        return fc.boolean();
      case "string":
        return validText(schema, longest);
      case "array":
        return fc.array(validValue(schema.items ?? {}, longest), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 3, 3),
        });
      case "object": {
        const properties = schema.properties ?? {};
        const names = Object.keys(properties);
        // The body limit is shared: each member gets its part of the longest.
        const each = Math.floor(longest / Math.max(names.length, 1));
        const { minProperties = 0, maxProperties = Number.POSITIVE_INFINITY } = schema;
        return fc
          .record(
            Object.fromEntries(
              names.map((name) => [name, validValue(properties[name] ?? {}, each)]),
            ),
            { requiredKeys: (schema.required ?? []).filter((name) => names.includes(name)) },
          )
          .filter((value) => {
            const count = Object.keys(value).length;
            return count >= minProperties && count <= maxProperties;
          });
      }
      default:
        return fc.jsonValue({ maxDepth: 1 });
    }
  }

  /** A value the schema refuses: of another type, past a bound, or missing a required member. */
  function invalidValue(raw: Schema): fc.Arbitrary<unknown> {
    const schema = flat(raw);
    const nullable = Array.isArray(schema.type) && schema.type.includes("null");
    const otherType = (type: string | undefined) =>
      fc.constantFrom(
        ...[
          ...(type === "string" ? [] : ["text"]),
          ...(type === "integer" || type === "number" ? [] : [7]),
          ...(type === "integer" ? [1.5] : []),
          ...(type === "boolean" ? [] : [true]),
          ...(type === "array" ? [] : [[1]]),
          ...(type === "object" ? [] : [{ a: 1 }]),
          ...(nullable ? [] : [null]),
        ],
      );
    const type = typeOf(schema);
    const bounds: fc.Arbitrary<unknown>[] = [];
    if (type === "integer") {
      const format =
        schema.format === "int64" ? INT64 : { min: BigInt(INT32.min), max: BigInt(INT32.max) };
      const max = schema.maximum === undefined ? format.max : BigInt(schema.maximum);
      const min = schema.minimum === undefined ? format.min : BigInt(schema.minimum);
      bounds.push(
        fc.bigInt({ min: max + 1n, max: max + 1000n }),
        fc.bigInt({ min: min - 1000n, max: min - 1n }),
      );
    }
    if (type === "string" && schema.maxLength !== undefined) {
      bounds.push(fc.constant("x".repeat(schema.maxLength + 1)));
    }
    const pattern = schema.pattern === undefined ? undefined : patternOf?.(schema.pattern);
    if (type === "string" && pattern !== undefined) {
      bounds.push(fc.string({ maxLength: 40 }).filter((text) => !pattern.test(text)));
    }
    if (type === "string" && schema.format === "uri") {
      bounds.push(fc.constantFrom("not a uri", "/relative/path", "http://", "http://a b/"));
    }
    if (type === "object" && (schema.minProperties ?? 0) > 0) bounds.push(fc.constant({}));
    if (type === "object" && schema.additionalProperties === false) {
      bounds.push(
        validValue(schema, 1000).map((value) => ({
          ...(value as object),
          "not a member of the schema": 1,
        })),
      );
    }
    for (const name of type === "object" ? (schema.required ?? []) : []) {
      bounds.push(
        validValue(schema, 1000).map((value) => {
          const { [name]: _dropped, ...kept } = value as Record<string, unknown>;
          return kept;
        }),
      );
    }
    return fc.oneof(otherType(type), ...bounds);
  }

  function parameterPart(parameter: DocumentedOperation["parameters"][number]): Part {
    const schema = flat((parameter as { schema?: Schema }).schema ?? {});
    const required =
      parameter.in === "path" || (parameter as { required?: boolean }).required === true;
    const type = typeOf(schema);
    const text =
      parameter.in === "header" && type === "string" && schema.enum === undefined
        ? headerText.filter((t) => t.length <= (schema.maxLength ?? 1024))
        : validValue(schema, 200).map(String);
    // A path segment that is empty or a dot segment is another path, not a value.
    const usable =
      parameter.in === "path" ? text.filter((t) => !["", ".", ".."].includes(t)) : text;
    const refused: fc.Arbitrary<string>[] = [];
    if (type === "integer") {
      refused.push(
        fc.constantFrom("text", "1.5", "1e2", "0x10", "+1", "01", "true", "[1]"),
        invalidValue({ ...schema, type: "integer" })
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
      ...parameters.map(parameterPart),
      ...(bodySchema === undefined
        ? []
        : [
            {
              what: "the body",
              valid: validValue(bodySchema, longest).map(toJson),
              invalid: invalidValue(bodySchema).map(toJson),
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

  return { validValue, invalidValue, fuzzRequest };
}
