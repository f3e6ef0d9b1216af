// Members that name another resource's row (`x-references` in the document): where they stand,
// the one sentence a request naming no stored row is refused with, and how the fuzz suite takes
// that refusal as an expected answer.
import { describe, expect, it } from "vitest";
import { unknownReference } from "../../src/handlers/unknown-reference.ts";
import { Problem } from "../../src/http/errors.ts";
import { REFERENCE_STATUS, referencesIn, requestReferences } from "../../src/openapi/references.ts";
import { type FuzzRequest, unexpectedAnswer } from "../helpers/schema-fuzz.ts";

const document = {
  components: {
    schemas: {
      ParentId: { type: "integer", format: "int64", "x-references": "parents" },
      NewChild: {
        allOf: [
          { type: "object", properties: { name: { type: "string" } } },
          {
            type: "object",
            properties: {
              parentId: { $ref: "#/components/schemas/ParentId" },
              siblings: {
                type: "array",
                items: { type: "string", "x-references": "children" },
              },
            },
          },
        ],
      },
    },
  },
};
const createChild = {
  operationId: "createChild",
  requestBody: {
    content: { "application/json": { schema: { $ref: "#/components/schemas/NewChild" } } },
  },
};
const dereferenced = {
  operationId: "createChild",
  requestBody: {
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: { parentId: document.components.schemas.ParentId },
        },
      },
    },
  },
};

describe("references in the document", () => {
  it("when members are marked x-references through $refs, allOf and array items, then each is found with its resource", () => {
    expect(referencesIn({ $ref: "#/components/schemas/NewChild" }, document)).toEqual([
      { location: ["parentId"], resource: "parents" },
      { location: ["siblings", "[*]"], resource: "children" },
    ]);
    expect(requestReferences(createChild, document)).toHaveLength(2);
  });

  it("when a schema marks nothing, then there are no references", () => {
    expect(referencesIn({ type: "object", properties: { id: { type: "integer" } } })).toEqual([]);
  });

  it("when a handler refuses a member that names no stored row, then the answer is the documented status with one sentence from the document", () => {
    const problem = unknownReference(dereferenced, ["parentId"], 9007199254740993n);
    expect(problem).toBeInstanceOf(Problem);
    expect(problem.status).toBe(REFERENCE_STATUS);
    expect(problem.message).toBe("`parentId` names no stored parents row (9007199254740993)");
  });

  it("when a handler refuses a member the document does not mark, then it throws rather than answer", () => {
    expect(() => unknownReference(dereferenced, ["name"], "x")).toThrow(
      "createChild: the body member name has no x-references in the document",
    );
  });
});

describe("the fuzz suite's verdict", () => {
  const valid: FuzzRequest = { method: "POST", url: "/children", headers: {} };
  const references = requestReferences(createChild, document);

  it("when a valid request is refused because a marked member names no stored row, then that is an expected answer", () => {
    const message = unknownReference(dereferenced, ["parentId"], 5n).message;
    expect(unexpectedAnswer(valid, { status: REFERENCE_STATUS, message }, references)).toBe(
      undefined,
    );
  });

  it("when a valid request is refused for anything else, then it is a failure", () => {
    expect(unexpectedAnswer(valid, { status: 400, message: "bad" }, references)).toBeDefined();
    expect(
      unexpectedAnswer(valid, { status: REFERENCE_STATUS, message: "other" }, references),
    ).toBeDefined();
    expect(
      unexpectedAnswer(valid, { status: REFERENCE_STATUS, message: "`x` names" }, []),
    ).toBeDefined();
  });

  it("when an invalid request is answered 400, then that is expected, and anything else is not", () => {
    const invalid = { ...valid, invalid: "the body" };
    expect(unexpectedAnswer(invalid, { status: 400, message: undefined }, references)).toBe(
      undefined,
    );
    expect(
      unexpectedAnswer(invalid, { status: REFERENCE_STATUS, message: undefined }, references),
    ).toBeDefined();
  });
});
