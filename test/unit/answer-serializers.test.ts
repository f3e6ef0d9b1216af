// The compiled answer serializers (src/openapi/answer-serializers.ts) must write every value their
// schema admits to the same bytes as the generic walk (src/http/exact-json.ts), and must leave to
// that walk every schema for which they could not. The differential test holds them to it on the
// answers the app gives; here, on any value of the document's own answer schemas, and on the
// schema forms that are compiled or not.
import fc from "fast-check";
import fastJson from "fast-json-stringify";
import { type Document, OpenAPIBackend } from "openapi-backend";
import { beforeAll, describe, expect, it } from "vitest";
import { exactJson } from "../../src/http/exact-json.ts";
import {
  type AnswerSerializers,
  answerSerializers,
  plainSchema,
} from "../../src/openapi/answer-serializers.ts";
import { loadDocument } from "../../src/openapi/document.ts";
import { fuzzSeeds } from "../helpers/fuzz-corpus.ts";

const SEEDS = fuzzSeeds(1);

let api: OpenAPIBackend;
let serializerFor: AnswerSerializers;

beforeAll(async () => {
  api = new OpenAPIBackend({ definition: loadDocument(), validate: false });
  await api.init();
  serializerFor = answerSerializers(api);
});

const operation = (operationId: string) => {
  const found = api.router.getOperations().find((op) => op.operationId === operationId);
  if (found === undefined) throw new Error(`no operation ${operationId}`);
  return found;
};

// Any text, lone surrogates, controls, quotes and backslashes included, short and long (the
// serializer escapes strings of under 42 characters its own way).
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: fc.constantFrom("a", '"', "\\", "\u0000", "\u001f", "\ud800", "é", "😀") }),
);
const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
// A create answers the plant as sent (Plant, without its id); a read and a page, with it.
const plant = fc.record({ name: text, tag: text }, { requiredKeys: ["name"] });
const storedPlant = fc.record(
  { id: int64, name: text, tag: text },
  { requiredKeys: ["id", "name"] },
);
const errorBody = fc.record({ error: fc.integer({ min: 100, max: 599 }), message: text });
const health = fc.constant({ status: "ok" });

describe("the answer serializers compiled from the document", () => {
  it("when a plant, a stored one, a page of them or an error is written, then the bytes are the generic walk's", () => {
    const cases = [
      { serialize: serializerFor(operation("getPlant"), 200), values: storedPlant },
      { serialize: serializerFor(operation("createPlant"), 200), values: plant },
      { serialize: serializerFor(operation("listPlants"), 200), values: fc.array(storedPlant) },
      { serialize: serializerFor(operation("createPlant"), 400), values: errorBody },
      { serialize: serializerFor(operation("deletePlant"), 404), values: errorBody },
      { serialize: serializerFor(operation("getHealth"), 200), values: health },
    ];
    for (const { serialize, values } of cases) {
      expect(serialize).toBeDefined();
      for (const seed of SEEDS) {
        fc.assert(
          fc.property(values as fc.Arbitrary<unknown>, (value) => {
            expect(serialize?.(value)).toBe(exactJson(value));
          }),
          { seed, numRuns: 300 },
        );
      }
    }
  });

  it("when an answer has no JSON schema, or a status the operation does not list, then there is no serializer", () => {
    expect(serializerFor(operation("deletePlant"), 204)).toBeUndefined();
    expect(serializerFor(operation("getMetrics"), 200)).toBeUndefined();
    // The document as JSON is free-form (additionalProperties: true).
    expect(serializerFor(operation("getOpenApiJson"), 200)).toBeUndefined();
    expect(serializerFor(operation("getPlant"), 418)).toBeUndefined();
  });

  it("when a required property is missing, then writing fails rather than breaking the contract", () => {
    const serialize = serializerFor(operation("getPlant"), 200);
    expect(() => serialize?.({ id: 1n })).toThrow();
  });
});

describe("which schemas are compiled", () => {
  const plain = (schema: Record<string, unknown>) => plainSchema(schema, new Set());
  const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: "object",
    properties,
    ...extra,
  });

  it("when a schema has only plain types, allOf of objects and inert keywords, then it is compiled, and writes a value as the generic walk does", () => {
    expect(
      plain({
        description: "d",
        allOf: [
          object(
            { id: { type: "integer", format: "int64", "x-exact-integer": true } },
            { required: ["id"] },
          ),
          object({ name: { type: "string", maxLength: 3, example: "x" } }),
        ],
      }),
    ).toEqual({
      type: "object",
      properties: { id: { type: "integer" }, name: { type: "string" } },
      required: ["id"],
    });
    expect(plain({ type: "array", items: { type: "boolean" } })).toEqual({
      type: "array",
      items: { type: "boolean" },
    });
    expect(plain({ type: "object", additionalProperties: false })).toEqual({
      type: "object",
      properties: {},
      required: [],
    });
    const accepted = [
      {
        schema: object(
          { id: { type: "integer" }, n: { type: "number" }, ok: { type: "boolean" } },
          { required: ["id"] },
        ),
        value: { id: -(2n ** 63n), n: -0.5e-7, ok: false },
      },
      {
        schema: { type: "array", items: object({ s: { type: "string" } }) },
        value: [{ s: 'a"\\\u2028\ud800' }, {}],
      },
      {
        schema: {
          allOf: [
            object({ a: { type: "string" } }, { required: ["a"] }),
            object({ b: { type: "array", items: { type: "integer" } } }),
          ],
        },
        value: { a: "", b: [1, 2n ** 64n] },
      },
    ];
    for (const { schema, value } of accepted) {
      const compiled = plain(schema);
      expect(compiled, JSON.stringify(schema)).toBeDefined();
      expect(fastJson(compiled as object)(value)).toBe(exactJson(value));
    }
  });

  it.each([
    ["nullable", { type: "string", nullable: true }],
    ["oneOf", { oneOf: [{ type: "string" }, { type: "integer" }] }],
    ["a list of types", { type: ["string", "null"] }],
    ["no type", { description: "anything" }],
    ["additional properties", object({}, { additionalProperties: true })],
    ["additional properties by schema", object({}, { additionalProperties: { type: "string" } })],
    ["a free-form object", { type: "object" }],
    ["a required property not declared", object({ a: { type: "string" } }, { required: ["b"] })],
    ["a nested part it cannot write", object({ a: { anyOf: [{ type: "string" }] } })],
    ["allOf beside properties of its own", { allOf: [object({})], properties: {} }],
    ["allOf of a non-object", { allOf: [{ type: "string" }] }],
    [
      "allOf declaring one property two ways",
      { allOf: [object({ a: { type: "string" } }), object({ a: { type: "integer" } })] },
    ],
    ["an array without items", { type: "array" }],
    ["x-nullable", { type: "string", "x-nullable": true }],
    ["an object with an empty list of properties", object({})],
    [
      "a property named __proto__",
      JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
    ],
    // fast-json-stringify writes required properties first: the value's order would be lost.
    [
      "a required property after an optional one",
      object({ a: { type: "string" }, b: { type: "string" } }, { required: ["b"] }),
    ],
    [
      "allOf putting a required property after an optional one (NewPlant)",
      {
        allOf: [
          object({ name: { type: "string" }, tag: { type: "string" } }, { required: ["name"] }),
          object({ id: { type: "integer" } }, { required: ["id"] }),
        ],
      },
    ],
  ])("when a schema has %s, then it is left to the generic walk", (_name, schema) => {
    expect(plain(schema as Record<string, unknown>)).toBeUndefined();
  });

  it("when a schema fast-json-stringify refuses (nested too deep) is documented, then it is left to the generic walk", async () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 120; level++) deep = { type: "array", items: deep };
    expect(plain(deep)).toBeDefined();
    const serializers = await serializersOf({ "200": jsonAnswer(deep) });
    expect(serializers(200)).toBeUndefined();
  });

  it("when a schema refers to itself, then it is left to the generic walk", () => {
    const node: Record<string, unknown> = { type: "object", properties: {} };
    (node["properties"] as Record<string, unknown>)["child"] = node;
    expect(plain(node)).toBeUndefined();
  });
});

describe("which documented answer a status takes", () => {
  const error = {
    type: "object",
    required: ["error", "message"],
    properties: { error: { type: "integer" }, message: { type: "string" } },
  };

  it("when the status is listed, then its own; in a listed range, then the generic walk; otherwise default's", async () => {
    const serializers = await serializersOf({
      "200": jsonAnswer({
        type: "object",
        required: ["name"],
        properties: { name: { type: "string" } },
      }),
      "4XX": jsonAnswer({ type: "object", additionalProperties: true }),
      "404": jsonAnswer(error),
      default: jsonAnswer({
        type: "object",
        required: ["code"],
        properties: { code: { type: "integer" } },
      }),
    });
    expect(serializers(200)?.({ name: "a" })).toBe('{"name":"a"}');
    expect(serializers(404)?.({ error: 404, message: "m" })).toBe('{"error":404,"message":"m"}');
    // 4XX lists no schema it compiles, and a range comes before default (OpenAPI 3).
    expect(serializers(400)).toBeUndefined();
    expect(serializers(503)?.({ code: 1 })).toBe('{"code":1}');
  });
});

const jsonAnswer = (schema: Record<string, unknown>) => ({
  description: "an answer",
  content: { "application/json": { schema } },
});

/** The serializers of a one-operation document with these responses, by status. */
async function serializersOf(responses: Record<string, unknown>) {
  const one = new OpenAPIBackend({
    definition: {
      openapi: "3.0.3",
      info: { title: "answers", version: "1" },
      paths: { "/things": { get: { operationId: "getThings", responses } } },
    } as unknown as Document,
    validate: false,
  });
  await one.init();
  const [only] = one.router.getOperations();
  if (only === undefined) throw new Error("no operation");
  const serializers = answerSerializers(one);
  return (status: number) => serializers(only, status);
}
