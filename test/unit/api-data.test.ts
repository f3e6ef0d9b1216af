// What the document declares of the data (src/openapi/data.ts), and the declarations refused
// because the store would lose or could not keep what the API accepts.
import { describe, expect, it } from "vitest";
import { dereference } from "../../src/openapi/backend.ts";
import { apiData, DataDeclarationError } from "../../src/openapi/data.ts";
import { FIXTURE_DATA, fixtureDocument } from "../helpers/declared.ts";

type Loose = Record<string, Record<string, Record<string, Record<string, unknown>>>>;

/** The fixture with one change made to it, as its data. */
async function declared(change: (document: Loose) => void) {
  const document = fixtureDocument();
  change(document as unknown as Loose);
  return apiData(await dereference(document));
}

const thing = (document: Loose) =>
  document["components"]?.["schemas"]?.["Thing"] as Loose[string][string];
const properties = (document: Loose) =>
  thing(document)["properties"] as Record<string, Record<string, unknown>>;

describe("the data a document declares", () => {
  it("when read, then each table has its key, noun and a column per member in order, with kinds, nullability and int64 places in JSON", () => {
    const things = FIXTURE_DATA.tables.find((table) => table.name === "things");
    expect(things?.key).toBe("code");
    expect(things?.noun).toBe("thing");
    expect(
      things?.columns.map((c) => [c.member, c.name, c.kind, c.nullable, c.nullIsValue]),
    ).toEqual([
      ["code", "code", "string", false, false],
      ["count", "count", "int32", false, false],
      ["ratio", "ratio", "number", true, false],
      ["active", "active", "boolean", false, false],
      ["kind", "kind", "string", false, false],
      ["details", "details", "json", true, false],
      ["labels", "labels", "json", true, true],
      ["parentId", "parent_id", "int64", true, false],
      ["bornAt", "born_at", "string", true, false],
      ["grade", "grade", "int32", true, false],
      ["key", "key", "string", true, false],
      ["bytes", "bytes", "int32", true, false],
    ]);
    expect(things?.columns.find((c) => c.member === "grade")?.default).toBe(3);
    expect(things?.columns.find((c) => c.member === "details")?.int64At).toEqual([["size"]]);
    expect(FIXTURE_DATA.events).toEqual([
      { type: "parentRenamed", table: "parents", on: "update", members: ["id", "name"] },
    ]);
    expect(FIXTURE_DATA.operations.find((op) => op.action === "list")?.filters).toEqual([
      "kind",
      "parentId",
      "active",
    ]);
  });

  it.each([
    [
      "a create body member the table does not store",
      (d: Loose) => {
        const body = d["paths"]?.["/things"]?.["post"] as Record<string, unknown>;
        body["requestBody"] = {
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["code"],
                properties: { code: { type: "string" }, colour: { type: "string" } },
              },
            },
          },
        };
      },
      /createThing's request body has the member colour, which the table things does not store/,
    ],
    [
      "an optional nullable member",
      (d: Loose) => {
        properties(d)["ratio"] = { type: ["number", "null"] };
      },
      /Thing\.ratio is optional and nullable/,
    ],
    [
      "an integer without a format",
      (d: Loose) => {
        properties(d)["count"] = { type: "integer" };
      },
      /Thing\.count is an integer without a format/,
    ],
    [
      "a reference to no declared table",
      (d: Loose) => {
        (properties(d)["parentId"] as Record<string, unknown>)["x-references"] = "owners";
      },
      /x-references names owners, which must be a declared table/,
    ],
    [
      "a filter that names no member",
      (d: Loose) => {
        const list = d["paths"]?.["/things"]?.["get"] as { parameters: unknown[] };
        list.parameters.push({ name: "colour", in: "query", schema: { type: "string" } });
      },
      /the query parameter colour names no member of things/,
    ],
    [
      "an update that changes the key",
      (d: Loose) => {
        const patch = d["components"]?.["schemas"]?.["ThingPatch"] as {
          properties: Record<string, unknown>;
        };
        patch.properties["code"] = { type: "string" };
      },
      /an update cannot change the key code/,
    ],
    [
      "a patch member longer than its column keeps",
      (d: Loose) => {
        const patch = d["components"]?.["schemas"]?.["ParentPatch"] as {
          properties: Record<string, unknown>;
        };
        patch.properties["name"] = { type: "string" };
      },
      /updateParent's request body member name may be longer than its column keeps \(100\): give it maxLength 100 or less/,
    ],
    [
      "a filter of another type than its member",
      (d: Loose) => {
        const list = d["paths"]?.["/things"]?.["get"] as { parameters: { name: string }[] };
        const kind = list.parameters.find((p) => p.name === "kind") as Record<string, unknown>;
        kind["schema"] = { type: "integer", format: "int32" };
      },
      /listThings's parameter kind is int32, but its column keeps string/,
    ],
    [
      "an after of another type than the key",
      (d: Loose) => {
        const list = d["paths"]?.["/things"]?.["get"] as { parameters: { name: string }[] };
        const after = list.parameters.find((p) => p.name === "after") as Record<string, unknown>;
        after["schema"] = { type: "integer", format: "int64" };
      },
      /listThings's parameter after is int64, but its column keeps string/,
    ],
    [
      "a filter on a member without an index",
      (d: Loose) => {
        delete (properties(d)["active"] as Record<string, unknown>)["x-indexed"];
      },
      /listThings: the filter active needs an index: mark things\.active x-indexed/,
    ],
    [
      "an event requiring a member its row may lack",
      (d: Loose) => {
        const parent = d["components"]?.["schemas"]?.["Parent"] as { required: string[] };
        parent.required = ["id"];
      },
      /webhook \/parent\/renamed's body requires name, which a parent may lack/,
    ],
  ])(
    "when the document has %s, then it is refused with a sentence",
    async (_what, change, sentence) => {
      await expect(declared(change)).rejects.toThrow(DataDeclarationError);
      await expect(declared(change)).rejects.toThrow(sentence);
    },
  );
});

describe("the events a document declares", () => {
  it("when an event is sent by a write no operation makes, then the document is refused: it would never be sent", async () => {
    await expect(
      declared((d) => {
        const patch = d["paths"]?.["/parents/{id}"] as Record<string, unknown>;
        delete patch["patch"];
      }),
    ).rejects.toThrow(
      /the event parentRenamed is sent by a update of parents, which no operation makes/,
    );
  });

  it("when a webhook says no write sends it, then the document is refused: it would never be sent", async () => {
    await expect(
      declared((d) => {
        const webhooks = d["webhooks"] as Record<string, Record<string, Record<string, unknown>>>;
        for (const item of Object.values(webhooks)) delete item["post"]?.["x-event"];
      }),
    ).rejects.toThrow(/no write sends it: say which one with x-event/);
  });

  it("when a webhook does not document the header its messages name their event in, then the document is refused", async () => {
    await expect(
      declared((d) => {
        const webhooks = d["webhooks"] as Record<string, Record<string, Record<string, unknown>>>;
        for (const item of Object.values(webhooks)) delete item["post"]?.["parameters"];
      }),
    ).rejects.toThrow(
      /webhook \/parent\/renamed: each message names its event in the webhook-event header: document it \(in: header, required: true, schema: \{type: string, const: parentRenamed\}\)/,
    );
  });

  it("when an event is sent by a write of a table whose key is not an int64, then the document is refused", async () => {
    await expect(
      declared((d) => {
        const webhooks = d["webhooks"] as Record<string, Record<string, Record<string, unknown>>>;
        const post = webhooks["/parent/renamed"]?.["post"];
        if (post !== undefined)
          post["x-event"] = { type: "parentRenamed", table: "things", on: "update" };
      }),
    ).rejects.toThrow(/x-event's table things must have an int64 key/);
  });

  it("when a table another names has a delete without a 409, then the document is refused: the delete of a named row is refused so", async () => {
    await expect(
      declared((d) => {
        const remove = d["paths"]?.["/parents/{id}"]?.["delete"] as Record<string, unknown>;
        delete (remove["responses"] as Record<string, unknown>)["409"];
      }),
    ).rejects.toThrow(
      /deleteParent: a parent that a row of things names cannot be deleted, and is answered 409: document the 409/,
    );
  });
});
