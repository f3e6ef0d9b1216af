// The document is checked against the OpenAPI schema of the version it declares: a 3.1
// document may use what 3.1 added to schemas (openapi-backend alone checks against 3.0's and
// refuses them), and a document that is not valid OpenAPI stops start-up saying where.
import type { Document } from "openapi-backend";
import { describe, expect, it } from "vitest";
import { createApi } from "../../src/openapi/backend.ts";

const withSchema = (schema: unknown, openapi = "3.1.0") =>
  ({
    openapi,
    info: { title: "check", version: "1" },
    paths: {
      "/things": {
        post: {
          operationId: "createThing",
          requestBody: { required: true, content: { "application/json": { schema } } },
          responses: { "204": { description: "created" } },
        },
      },
    },
  }) as unknown as Document;

describe("the document's own version of OpenAPI", () => {
  it("when a 3.1 document uses type lists, const, numeric exclusive bounds and examples, then it starts", async () => {
    const schema = {
      type: "object",
      properties: {
        tag: { type: ["string", "null"], examples: ["green"] },
        kind: { const: "plant" },
        height: { type: "number", exclusiveMinimum: 0 },
      },
    };
    const api = await createApi(withSchema(schema));
    expect(api.operations.map((o) => o.operationId)).toEqual(["createThing"]);
  });

  it("when a document is not valid OpenAPI, then start-up stops saying where", async () => {
    const broken = withSchema({ type: "object" }) as unknown as {
      paths: Record<string, { post: { responses: unknown } }>;
    };
    const post = broken.paths["/things"]?.post;
    if (post !== undefined) post.responses = "none";
    await expect(createApi(broken as unknown as Document)).rejects.toThrow(
      /^the document is not valid OpenAPI 3\.1\.0: \/paths\/~1things\/post\/responses /,
    );
  });

  it("when a document declares a version no schema is known for, then start-up stops", async () => {
    await expect(createApi(withSchema({}, "2.5.0"))).rejects.toThrow(/not valid OpenAPI 2\.5\.0/);
  });
});
