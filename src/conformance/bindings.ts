// What the server generated for the values a document's examples write (`x-generated: true`
// in its schemas), learnt from the answers: examples.ts says how an example stands for them.
import { Ajv, type ValidateFunction } from "ajv";
import { DATE_TIME_FORMAT, URI_FORMAT } from "../text/formats.ts";
import type { ExampleAnswer, Schema } from "./examples.ts";
import { linearRegExp } from "./linear-regexp.ts";

interface SchemaTools {
  validFor(schema: Schema, value: unknown): boolean;
  flat(schema: Schema): Schema;
}

// One set of compiled validators per document: a test makes Bindings for every run.
const toolsByDocument = new WeakMap<object, SchemaTools>();

function schemaTools(document: object): SchemaTools {
  const known = toolsByDocument.get(document);
  if (known !== undefined) return known;
  const components = (document as { components?: Record<string, unknown> }).components ?? {};
  const schemas = (components["schemas"] ?? {}) as Record<string, Schema>;
  // A pattern the linear engine cannot take is reported by the contract checker's own ajv.
  const ajv = new Ajv({ strict: false, code: { regExp: linearRegExp(() => {}) } })
    .addFormat("date-time", DATE_TIME_FORMAT)
    .addFormat("uri", URI_FORMAT)
    .addSchema({ components }, "doc");
  const validators = new Map<Schema, ValidateFunction>();
  const validFor = (schema: Schema, value: unknown): boolean => {
    let validate = validators.get(schema);
    if (validate === undefined) {
      const text = JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/');
      validate = ajv.compile(JSON.parse(text) as object);
      validators.set(schema, validate);
    }
    return validate(value) === true;
  };
  /** The schema with $refs followed and allOf's properties joined. */
  const flat = (schema: Schema): Schema => {
    const resolved =
      schema.$ref === undefined
        ? schema
        : (schemas[schema.$ref.replace("#/components/schemas/", "")] ?? {});
    if (resolved.allOf === undefined) return resolved;
    const parts = resolved.allOf.map(flat);
    return {
      ...resolved,
      properties: Object.assign({}, resolved.properties, ...parts.map((part) => part.properties)),
    };
  };
  const tools = { validFor, flat };
  toolsByDocument.set(document, tools);
  return tools;
}

/**
 * What the server generated for the values a document's examples write (`x-generated`), learnt
 * from the answers in the order they came. The same example value stands for the same generated
 * value wherever it is written.
 */
export class Bindings {
  private readonly values = new Map<string, string>();
  private readonly tools: SchemaTools;

  constructor(document: object) {
    this.tools = schemaTools(document);
  }

  /** `text` (a target or a body) with every example value learnt replaced by the real one. */
  apply(text: string): string {
    let applied = text;
    for (const [written, real] of this.values) {
      applied = applied
        .replaceAll(written, real)
        .replaceAll(encodeURIComponent(written), encodeURIComponent(real));
    }
    return applied;
  }

  /**
   * The example's body as the server should have answered it: each generated value is the one
   * `actual` has where that is valid for its schema (and learnt), or the one learnt before for
   * the same example value. Compare `actual` with the result.
   */
  expected(answer: ExampleAnswer, actual: unknown): unknown {
    return answer.schema === undefined
      ? answer.body
      : this.fill(answer.body, actual, answer.schema);
  }

  private fill(example: unknown, actual: unknown, raw: Schema): unknown {
    const schema = this.tools.flat(raw);
    if (Array.isArray(example)) {
      const items = Array.isArray(actual) ? actual : [];
      return example.map((item, index) => this.fill(item, items[index], schema.items ?? {}));
    }
    if (typeof example !== "object" || example === null) return example;
    const given = (typeof actual === "object" && actual !== null ? actual : {}) as Record<
      string,
      unknown
    >;
    return Object.fromEntries(
      Object.entries(example).map(([name, value]) => {
        const property = this.tools.flat(schema.properties?.[name] ?? {});
        if (property["x-generated"] !== true || typeof value !== "string") {
          return [name, this.fill(value, given[name], property)];
        }
        const learnt = this.values.get(value);
        if (learnt !== undefined) return [name, learnt];
        const real = given[name];
        if (typeof real !== "string" || !this.tools.validFor(property, real)) return [name, value];
        this.values.set(value, real);
        return [name, real];
      }),
    );
  }
}
