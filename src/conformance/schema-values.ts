// Values made from a document's schemas (fast-check arbitraries), for the requests of
// fuzz-request.ts: valid for a schema, or refused by it. Valid strings include, now and then,
// incompressible ones as long as the schema allows (or as the body limit leaves room for), so
// a store that indexes or compresses them meets the worst case. int64s are bigints.
import fc from "fast-check";

export interface Schema {
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
  uniqueItems?: boolean;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
// A deployment's document may ask for anything: strings and arrays are made no longer than
// this, and schemas that nest (or refer to themselves) no deeper.
const LONGEST_TEXT = 64 * 1024;
const MOST_ITEMS = 16;
const DEEPEST = 12;
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

export const typeOf = (schema: Schema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;

/**
 * Text a store must keep exactly: no NUL and no lone surrogate (those are refused with a 400
 * of their own); now and then as long as allowed, of characters that do not compress.
 */
function validString(schema: Schema, longest: number): fc.Arbitrary<string> {
  // Two bytes a character below: an unbounded string fills its share of the bytes.
  const max = Math.min(schema.maxLength ?? Math.floor(longest / 2), LONGEST_TEXT);
  const min = Math.min(schema.minLength ?? 0, max);
  const short = fc
    .string({ unit: "grapheme", minLength: min, maxLength: Math.max(min, Math.min(max, 40)) })
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
  const max = Math.min(schema.maxLength ?? 2048, LONGEST_TEXT);
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

export class SchemaValues {
  constructor(
    private readonly components: Record<string, Schema>,
    // The document's patterns become regular expressions only where the caller allows it: the
    // service's sources build none at run time. Without one, a patterned string takes the
    // schema's examples, and gets no invalid value of its own.
    private readonly patternOf?: (source: string) => RegExp,
  ) {}

  /** The schema with $refs followed and allOf merged (properties and required joined). */
  flat(schema: Schema): Schema {
    const resolved =
      schema.$ref === undefined
        ? schema
        : (this.components[schema.$ref.split("/").at(-1) ?? ""] ?? {});
    if (resolved.allOf === undefined) return resolved;
    const { allOf, ...rest } = resolved;
    const parts = allOf.map((part) => this.flat(part));
    return Object.assign({}, rest, ...parts, {
      properties: Object.assign({}, ...parts.map((part) => part.properties)),
      required: parts.flatMap((part) => part.required ?? []),
    });
  }

  /** A value the schema accepts. `longest` bounds, in bytes, what the schema leaves unbounded. */
  validValue(raw: Schema, longest: number): fc.Arbitrary<unknown> {
    if (this.depth >= DEEPEST) return fc.constant(null);
    this.depth += 1;
    try {
      const schema = this.flat(raw);
      const value = this.validOfType(schema, longest);
      // 3.1's nullable, [type, "null"]: now and then null.
      const nullable = Array.isArray(schema.type) && schema.type.includes("null");
      return nullable ? fc.oneof({ weight: 4, arbitrary: value }, fc.constant(null)) : value;
    } finally {
      this.depth -= 1;
    }
  }

  /** How deep the arbitrary being built is, in schemas (they are built depth first). */
  private depth = 0;

  /** A value the schema refuses: of another type, past a bound, or missing a required member. */
  invalidValue(raw: Schema): fc.Arbitrary<unknown> {
    const schema = this.flat(raw);
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
    if (type === "string" && schema.maxLength !== undefined && schema.maxLength < LONGEST_TEXT) {
      bounds.push(fc.constant("x".repeat(schema.maxLength + 1)));
    }
    const pattern = schema.pattern === undefined ? undefined : this.patternOf?.(schema.pattern);
    if (type === "string" && pattern !== undefined) {
      bounds.push(fc.string({ maxLength: 40 }).filter((text) => !pattern.test(text)));
    }
    if (type === "string" && schema.format === "uri") {
      bounds.push(fc.constantFrom("not a uri", "/relative/path", "http://", "http://a b/"));
    }
    if (type === "array" && schema.uniqueItems === true) {
      const items = this.validValue(schema.items ?? {}, 1000);
      bounds.push(items.map((item) => [item, item]));
    }
    if (type === "object" && (schema.minProperties ?? 0) > 0) bounds.push(fc.constant({}));
    if (type === "object" && schema.additionalProperties === false) {
      bounds.push(
        this.validValue(schema, 1000).map((value) => ({
          ...(value as object),
          "not a member of the schema": 1,
        })),
      );
    }
    for (const name of type === "object" ? (schema.required ?? []) : []) {
      bounds.push(
        this.validValue(schema, 1000).map((value) => {
          const { [name]: _dropped, ...kept } = value as Record<string, unknown>;
          return kept;
        }),
      );
    }
    return fc.oneof(otherType(type), ...bounds);
  }

  /** A string the schema accepts: its format's values or any text, then kept to its pattern and lengths. */
  private validText(schema: Schema, longest: number): fc.Arbitrary<string> {
    const pattern = schema.pattern === undefined ? undefined : this.patternOf?.(schema.pattern);
    const examples = [
      ...(schema.examples ?? []),
      ...(schema.example === undefined ? [] : [schema.example]),
    ];
    const base =
      schema.format === "uri"
        ? validUri(schema)
        : schema.format === "date-time"
          ? fc
              .date({ noInvalidDate: true, min: new Date(0), max: new Date(4102444800000) })
              .map((d) => d.toISOString())
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

  private validOfType(schema: Schema, longest: number): fc.Arbitrary<unknown> {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
    const choices = schema.anyOf ?? schema.oneOf;
    if (choices !== undefined) return fc.oneof(...choices.map((c) => this.validValue(c, longest)));
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
        return this.validText(schema, longest);
      case "array": {
        const items = this.validValue(schema.items ?? {}, longest);
        const lengths = {
          minLength: Math.min(schema.minItems ?? 0, MOST_ITEMS),
          maxLength: Math.max(
            Math.min(schema.minItems ?? 0, MOST_ITEMS),
            Math.min(schema.maxItems ?? 3, 3),
          ),
        };
        return schema.uniqueItems === true
          ? fc.uniqueArray(items, { ...lengths, selector: sameValue })
          : fc.array(items, lengths);
      }
      case "object": {
        const properties = schema.properties ?? {};
        const names = Object.keys(properties);
        // The body limit is shared: each member gets its part of the longest.
        const each = Math.floor(longest / Math.max(names.length, 1));
        const { minProperties = 0, maxProperties = Number.POSITIVE_INFINITY } = schema;
        return fc
          .record(
            Object.fromEntries(
              names.map((name) => [name, this.validValue(properties[name] ?? {}, each)]),
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
}

/** uniqueItems compares JSON values; bigints are int64s, compared by their digits. */
function sameValue(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
}
