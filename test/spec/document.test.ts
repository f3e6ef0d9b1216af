import { describe, expect, it } from "vitest";
import { loadDocument } from "../../src/openapi/document.ts";

// The parts of the seed contract that must never drift (../shared/spec/plant-store.md).
describe("openapi/plants.yaml keeps the seed contract", () => {
  const doc = loadDocument() as unknown as {
    info: { version: string; license: { name: string } };
    security: unknown;
    components: { securitySchemes: unknown; schemas: Record<string, unknown> };
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };

  it("when read, then it is version 1.0.0 under the MIT license", () => {
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.license.name).toBe("MIT");
  });

  it("when read, then one global http bearer scheme covers everything", () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer" },
    });
  });

  it("when read, then Plant, NewPlant and Error have the seed fields", () => {
    expect(doc.components.schemas["Plant"]).toMatchObject({
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, tag: { type: "string" } },
    });
    expect(doc.components.schemas["NewPlant"]).toMatchObject({
      allOf: [
        { $ref: "#/components/schemas/Plant" },
        { required: ["id"], properties: { id: { type: "integer", format: "int64" } } },
      ],
    });
    expect(doc.components.schemas["Error"]).toMatchObject({
      required: ["error", "message"],
      properties: { error: { type: "integer", format: "int32" }, message: { type: "string" } },
    });
  });

  it("when read, then POST /plants is the only operation and every non-200 answer is an Error", () => {
    expect(Object.keys(doc.paths)).toEqual(["/plants"]);
    expect(Object.keys(doc.paths["/plants"] ?? {})).toEqual(["post"]);
    const responses = doc.paths["/plants"]?.["post"]?.responses ?? {};
    // Every status the server can answer is documented, and nothing else.
    expect(Object.keys(responses).sort()).toEqual(
      ["200", "400", "401", "403", "404", "405", "409", "413", "415", "500", "503"].sort(),
    );
    expect(responses["200"]).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/Plant" } } },
    });
    for (const [status, response] of Object.entries(responses)) {
      if (status === "200") continue;
      expect(response, status).toMatchObject({
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      });
    }
  });
});
