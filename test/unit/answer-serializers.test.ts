// The compiled answer serializers (src/openapi/answer-serializers.ts) must write every value their
// schema admits to the same bytes as the generic walk (src/http/exact-json.ts), and must leave to
// that walk every schema for which they could not. The differential test holds them to it on the
// answers the app gives; here, on any value of the document's own answer schemas, and on the
// schema forms that are compiled or not.
import fc from "fast-check";
import { OpenAPIBackend } from "openapi-backend";
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

describe("the answer serializers compiled from the document", () => {
  it("when a plant, a stored one, a page of them or an error is written, then the bytes are the generic walk's", () => {
    const cases = [
      { serialize: serializerFor(operation("getPlant"), 200), values: storedPlant },
      { serialize: serializerFor(operation("createPlant"), 200), values: plant },
      { serialize: serializerFor(operation("listPlants"), 200), values: fc.array(storedPlant) },
      { serialize: serializerFor(operation("createPlant"), 400), values: errorBody },
      { serialize: serializerFor(operation("deletePlant"), 404), values: errorBody },
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

  it("when a schema has only plain types, allOf of objects and inert keywords, then it is compiled", () => {
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
  ])("when a schema has %s, then it is left to the generic walk", (_name, schema) => {
    expect(plain(schema as Record<string, unknown>)).toBeUndefined();
  });

  it("when a schema refers to itself, then it is left to the generic walk", () => {
    const node: Record<string, unknown> = { type: "object", properties: {} };
    (node["properties"] as Record<string, unknown>)["child"] = node;
    expect(plain(node)).toBeUndefined();
  });
});
