// Where a change is placed and what is said of it: diffDocuments on a small document of its own
// (a collection with a parameter, a request body, an answer with headers, a webhook, a schema
// shared by $ref), each edit's changes in full — class, version raise, the operation, the
// sentence a reviewer reads and the pointer. A few milliseconds a case, against the whole
// document's 0.3 s in classify.test.ts, whose edits check the class of every rule on the real
// document.
import { describe, expect, it } from "vitest";
import { type Change, diffDocuments } from "../../src/spec-diff/diff.ts";

// biome-ignore lint/suspicious/noExplicitAny: edits reach into the document freely.
type Doc = any;

const BASE: Doc = {
  openapi: "3.1.0",
  info: { title: "Things", version: "1.0.0" },
  paths: {
    "/things": {
      get: {
        operationId: "listThings",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", maximum: 100 } }],
        responses: {
          "200": {
            description: "ok",
            headers: {
              Link: { required: true, schema: { type: "string" } },
              "X-Note": { schema: { type: "string" } },
            },
            content: {
              "application/json": {
                schema: { type: "array", items: { $ref: "#/components/schemas/Thing" } },
              },
            },
          },
        },
      },
      post: {
        operationId: "createThing",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
        },
        responses: { "200": { description: "ok" }, "400": { description: "bad" } },
      },
    },
  },
  webhooks: {
    thingMade: {
      post: {
        operationId: "thingMadeWebhook",
        requestBody: {
          content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
        },
        responses: { "200": { description: "ok" } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        required: ["id"],
        properties: { id: { type: "integer" }, tag: { type: "string" } },
      },
    },
  },
};

const changed = (
  severity: Change["severity"],
  bump: Change["bump"],
  operation: string,
  sentence: string,
  pointer: string,
): Change => ({ severity, bump, operation, sentence, pointer });

describe("diffDocuments", () => {
  it.each<[string, (d: Doc) => void, Change[]]>([
    [
      "the request body is removed",
      (d) => {
        delete d.paths["/things"].post.requestBody;
      },
      [
        changed(
          "breaking",
          "major",
          "createThing",
          "`createThing` request body: removed — breaking for clients that send it",
          "/paths/~1things/post/requestBody",
        ),
      ],
    ],
    [
      "the request body is made optional",
      (d) => {
        d.paths["/things"].post.requestBody.required = false;
      },
      [
        changed(
          "compatible",
          "minor",
          "createThing",
          "`createThing` request body: now optional — compatible",
          "/paths/~1things/post/requestBody/required",
        ),
      ],
    ],
    [
      "a webhook's body is removed",
      (d) => {
        delete d.webhooks.thingMade.post.requestBody;
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` request body: removed — breaking for receivers that read it",
          "/webhooks/thingMade/post/requestBody",
        ),
      ],
    ],
    [
      "a required request body is added",
      (d) => {
        d.paths["/things"].get.requestBody = {
          required: true,
          content: { "application/json": { schema: { type: "object" } } },
        };
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` request body: added, required — breaking for clients that leave it out",
          "/paths/~1things/get/requestBody",
        ),
      ],
    ],
    [
      "an optional request body is added",
      (d) => {
        d.paths["/things"].get.requestBody = {
          content: { "application/json": { schema: { type: "object" } } },
        };
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` request body: added — compatible",
          "/paths/~1things/get/requestBody",
        ),
      ],
    ],
    [
      "a request media type is added",
      (d) => {
        d.paths["/things"].post.requestBody.content["application/xml"] = {
          schema: { type: "string" },
        };
      },
      [
        changed(
          "compatible",
          "minor",
          "createThing",
          "`createThing` request body: media type `application/xml` added — compatible",
          "/paths/~1things/post/requestBody/content/application~1xml",
        ),
      ],
    ],
    [
      "a request media type is replaced by another",
      (d) => {
        d.paths["/things"].post.requestBody.content = {
          "text/plain": { schema: { type: "string" } },
        };
      },
      [
        changed(
          "breaking",
          "major",
          "createThing",
          "`createThing` request body: media type `application/json` removed — breaking for clients that send it",
          "/paths/~1things/post/requestBody/content/application~1json",
        ),
        changed(
          "compatible",
          "minor",
          "createThing",
          "`createThing` request body: media type `text/plain` added — compatible",
          "/paths/~1things/post/requestBody/content/text~1plain",
        ),
      ],
    ],
    [
      "a required answer header is removed",
      (d) => {
        delete d.paths["/things"].get.responses["200"].headers.Link;
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` 200 header `Link`: header removed — breaking for clients that read it",
          "/paths/~1things/get/responses/200/headers/Link",
        ),
      ],
    ],
    [
      "an optional answer header is removed",
      (d) => {
        delete d.paths["/things"].get.responses["200"].headers["X-Note"];
      },
      [
        changed(
          "possibly breaking",
          "minor",
          "listThings",
          "`listThings` 200 header `X-Note`: header removed — possibly breaking for clients",
          "/paths/~1things/get/responses/200/headers/X-Note",
        ),
      ],
    ],
    [
      "an answer header is added",
      (d) => {
        d.paths["/things"].get.responses["200"].headers["X-New"] = { schema: { type: "string" } };
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` 200 header `X-New`: header added — compatible",
          "/paths/~1things/get/responses/200/headers/X-New",
        ),
      ],
    ],
    [
      "a required answer header is made optional",
      (d) => {
        d.paths["/things"].get.responses["200"].headers.Link.required = false;
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` 200 header `Link`: now optional — breaking for clients that read it",
          "/paths/~1things/get/responses/200/headers/Link/required",
        ),
      ],
    ],
    [
      "an answer header's schema gets a bound",
      (d) => {
        d.paths["/things"].get.responses["200"].headers["X-Note"].schema.maxLength = 5;
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` 200 header `X-Note`: `maxLength` set to `5` — compatible (less is sent)",
          "/paths/~1things/get/responses/200/headers/X-Note/schema/maxLength",
        ),
      ],
    ],
    [
      "a status is removed",
      (d) => {
        delete d.paths["/things"].post.responses["400"];
      },
      [
        changed(
          "breaking",
          "major",
          "createThing",
          "`createThing` 400: status removed — breaking for clients that handle it",
          "/paths/~1things/post/responses/400",
        ),
      ],
    ],
    [
      "a status is added",
      (d) => {
        d.paths["/things"].post.responses["409"] = { description: "c" };
      },
      [
        changed(
          "compatible",
          "minor",
          "createThing",
          "`createThing` 409: status added — compatible",
          "/paths/~1things/post/responses/409",
        ),
      ],
    ],
    [
      "a webhook answer's status is replaced",
      (d) => {
        d.webhooks.thingMade.post.responses = { "204": { description: "x" } };
      },
      [
        changed(
          "possibly breaking",
          "minor",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` 200: status removed — possibly breaking for receivers that answer it",
          "/webhooks/thingMade/post/responses/200",
        ),
        changed(
          "compatible",
          "minor",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` 204: status added — compatible",
          "/webhooks/thingMade/post/responses/204",
        ),
      ],
    ],
    [
      "a parameter is made required",
      (d) => {
        d.paths["/things"].get.parameters[0].required = true;
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `limit`: now required — breaking for clients that leave it out",
          "/paths/~1things/get/parameters/0/required",
        ),
      ],
    ],
    [
      "a required parameter is added",
      (d) => {
        d.paths["/things"].get.parameters.push({
          name: "q",
          in: "query",
          required: true,
          schema: { type: "string" },
        });
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `q`: added, required — breaking for clients that leave it out",
          "/paths/~1things/get/parameters/1",
        ),
      ],
    ],
    [
      "an optional parameter is added",
      (d) => {
        d.paths["/things"].get.parameters.push({
          name: "q",
          in: "query",
          schema: { type: "string" },
        });
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` query parameter `q`: added — compatible",
          "/paths/~1things/get/parameters/1",
        ),
      ],
    ],
    [
      "a parameter is removed",
      (d) => {
        d.paths["/things"].get.parameters = [];
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `limit`: removed — breaking for clients that send it",
          "/paths/~1things/get/parameters/0",
        ),
      ],
    ],
    [
      "a parameter's maximum is lowered",
      (d) => {
        d.paths["/things"].get.parameters[0].schema.maximum = 50;
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `limit`: `maximum` changed from `100` to `50` — breaking for clients whose values it now refuses",
          "/paths/~1things/get/parameters/0/schema/maximum",
        ),
      ],
    ],
    [
      "an operation is removed",
      (d) => {
        delete d.paths["/things"].post;
      },
      [
        changed(
          "breaking",
          "major",
          "createThing",
          "`createThing`: operation removed — breaking for clients that call it",
          "/paths/~1things/post",
        ),
      ],
    ],
    [
      "a path is added",
      (d) => {
        d.paths["/other"] = {
          get: { operationId: "getOther", responses: { "200": { description: "ok" } } },
        };
      },
      [
        changed(
          "compatible",
          "minor",
          "getOther",
          "`getOther`: operation added — compatible",
          "/paths/~1other/get",
        ),
      ],
    ],
    [
      "a path whose operation has no operationId is added",
      (d) => {
        d.paths["/other"] = { delete: { responses: { "200": { description: "ok" } } } };
      },
      [
        changed(
          "compatible",
          "minor",
          "DELETE",
          "`DELETE /other`: operation added — compatible",
          "/paths/~1other/delete",
        ),
      ],
    ],
    [
      "a shared schema loses a member",
      (d) => {
        delete d.components.schemas.Thing.properties.tag;
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` 200 `[]`: member `tag` removed — breaking for clients that read it",
          "/paths/~1things/get/responses/200/content/application~1json/schema/items/properties/tag",
        ),
        changed(
          "possibly breaking",
          "minor",
          "createThing",
          "`createThing` request body: member `tag` removed — possibly breaking for clients that send it",
          "/paths/~1things/post/requestBody/content/application~1json/schema/properties/tag",
        ),
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` request body: member `tag` removed — breaking for receivers that read it",
          "/webhooks/thingMade/post/requestBody/content/application~1json/schema/properties/tag",
        ),
      ],
    ],
    [
      "only info.version changes",
      (d) => {
        d.info.version = "2.0.0";
      },
      [],
    ],
    [
      "the title changes",
      (d) => {
        d.info.title = "Stuff";
      },
      [
        changed(
          "compatible",
          "patch",
          "info.title",
          "`info.title`: changed — documentation only",
          "/info/title",
        ),
      ],
    ],
    [
      "a webhook is removed",
      (d) => {
        delete d.webhooks.thingMade;
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook`: webhook removed — breaking for receivers that handle it",
          "/webhooks/thingMade/post",
        ),
      ],
    ],
  ])("when %s, then each change is placed and said as the rules say", (_name, edit, expected) => {
    const after = structuredClone(BASE);
    edit(after);

    expect(diffDocuments(BASE, after)).toEqual(expected);
  });
});
