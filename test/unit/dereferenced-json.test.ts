// The build's text of the dereferenced document (src/openapi/dereferenced-json.ts): read back,
// it is the same document, with an object named in several places one object again.
import type { Document } from "openapi-backend";
import { describe, expect, it } from "vitest";
import { dereference } from "../../src/openapi/backend.ts";
import { dereferencedFromJson, dereferencedToJson } from "../../src/openapi/dereferenced-json.ts";

const roundTrip = (document: unknown): Record<string, unknown> =>
  dereferencedFromJson(dereferencedToJson(document as Document)) as unknown as Record<
    string,
    unknown
  >;

describe("the dereferenced document as JSON", () => {
  it("when a schema is named in two places, then both hold one object after the round trip", async () => {
    const dereferenced = await dereference({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/a/{id}": {
          get: {
            operationId: "a",
            responses: { "200": { $ref: "#/components/responses/Thing" } },
          },
          put: {
            operationId: "b",
            responses: { "200": { $ref: "#/components/responses/Thing" } },
          },
        },
      },
      components: {
        responses: {
          Thing: {
            description: "a thing",
            content: { "application/json": { schema: { type: "string", maxLength: 3 } } },
          },
        },
      },
    } as unknown as Document);
    const back = roundTrip(dereferenced);
    expect(JSON.stringify(back)).toBe(JSON.stringify(dereferenced));
    type Operation = { responses: Record<string, object> };
    const path = (back["paths"] as Record<string, Record<string, Operation>>)["/a/{id}"];
    expect(path?.["get"]?.responses["200"]).toBe(path?.["put"]?.responses["200"]);
  });

  it("when an object contains itself, then it does so again, and a member named __proto__ stays a member", () => {
    const node: Record<string, unknown> = { type: "object" };
    node["properties"] = { child: node };
    const document = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    document["schema"] = node;
    const back = roundTrip(document);
    const schema = back["schema"] as { properties: { child: unknown } };
    expect(schema.properties.child).toBe(schema);
    expect(Object.keys(back)).toEqual(["__proto__", "schema"]);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  });
});
