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

const EVENT = { type: "thing.made", table: "things", on: "insert" };

const changed = (
  severity: Change["severity"],
  bump: Change["bump"],
  operation: string,
  sentence: string,
  pointer: string,
): Change => ({ severity, bump, operation, sentence, pointer });

describe("diffDocuments", () => {
  it.each<[string, (d: Doc) => void, Change[], ((d: Doc) => void)?]>([
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
    [
      "a webhook declares its event",
      (d) => {
        d.webhooks.thingMade.post["x-event"] = EVENT;
      },
      [
        changed(
          "possibly breaking",
          "minor",
          "thingMadeWebhook",
          'webhook `thingMadeWebhook`: `x-event` set to `{"type":"thing.made","table":"things","on":"insert"}` — possibly breaking for receivers whose endpoints do not subscribe to it: they stop getting it',
          "/webhooks/thingMade/post/x-event",
        ),
      ],
    ],
    [
      "a webhook's event type changes",
      (d) => {
        d.webhooks.thingMade.post["x-event"].type = "thing.born";
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook`: `x-event` changed from `thing.made` to `thing.born` — breaking for endpoints subscribed by event type: who is sent it changes",
          "/webhooks/thingMade/post/x-event/type",
        ),
      ],
      (d) => {
        d.webhooks.thingMade.post["x-event"] = structuredClone(EVENT);
      },
    ],
    [
      "a webhook's event is dropped",
      (d) => {
        delete d.webhooks.thingMade.post["x-event"];
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          'webhook `thingMadeWebhook`: `x-event` `{"type":"thing.made","table":"things","on":"insert"}` removed — breaking for endpoints subscribed by event type: who is sent it changes',
          "/webhooks/thingMade/post/x-event",
        ),
      ],
      (d) => {
        d.webhooks.thingMade.post["x-event"] = structuredClone(EVENT);
      },
    ],
    [
      "a webhook with an event and no operationId is added",
      (d) => {
        d.webhooks.thingGone = {
          post: { "x-event": EVENT, responses: { "200": { description: "ok" } } },
        };
      },
      [
        changed(
          "compatible",
          "minor",
          "POST",
          "webhook `POST thingGone`: webhook added — compatible (sent only to endpoints that subscribe)",
          "/webhooks/thingGone/post",
        ),
      ],
    ],
    [
      "a webhook without an event is added",
      (d) => {
        d.webhooks.thingGone = {
          post: { operationId: "thingGoneWebhook", responses: { "200": { description: "ok" } } },
        };
      },
      [
        changed(
          "breaking",
          "major",
          "thingGoneWebhook",
          "webhook `thingGoneWebhook`: webhook added — breaking: without `x-event` it is sent to every registered endpoint, and their receivers do not know it",
          "/webhooks/thingGone/post",
        ),
      ],
    ],
    [
      "a webhook without an operationId is removed",
      (d) => {
        delete d.webhooks.thingMade;
      },
      [
        changed(
          "breaking",
          "major",
          "POST",
          "webhook `POST thingMade`: webhook removed — breaking for receivers that handle it",
          "/webhooks/thingMade/post",
        ),
      ],
      (d) => {
        delete d.webhooks.thingMade.post.operationId;
      },
    ],
    [
      "an operation's description changes",
      (d) => {
        d.paths["/things"].get.description = "All of them";
      },
      [
        changed(
          "compatible",
          "patch",
          "listThings",
          "`listThings`: description changed — wording only",
          "/paths/~1things/get/description",
        ),
      ],
    ],
    [
      "a webhook's summary changes",
      (d) => {
        d.webhooks.thingMade.summary = "Made";
      },
      [
        changed(
          "compatible",
          "patch",
          "thingMade",
          "`thingMade`: summary changed — wording only",
          "/webhooks/thingMade/summary",
        ),
      ],
    ],
    [
      "a required parameter is added to the path",
      (d) => {
        d.paths["/things"].parameters = [
          { name: "X-Trace", in: "header", required: true, schema: { type: "string" } },
        ];
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` header parameter `X-Trace`: added, required — breaking for clients that leave it out",
          "/paths/~1things/get/parameters/1",
        ),
        changed(
          "breaking",
          "major",
          "createThing",
          "`createThing` header parameter `X-Trace`: added, required — breaking for clients that leave it out",
          "/paths/~1things/post/parameters/0",
        ),
      ],
    ],
    [
      "a path's parameter changes beside an operation's own",
      (d) => {
        d.paths["/things"].parameters[0].schema.type = "integer";
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` header parameter `X-Trace`: type changed from `string` to `integer` — breaking for clients",
          "/paths/~1things/get/parameters/1/schema/type",
        ),
        changed(
          "breaking",
          "major",
          "createThing",
          "`createThing` header parameter `X-Trace`: type changed from `string` to `integer` — breaking for clients",
          "/paths/~1things/post/parameters/0/schema/type",
        ),
      ],
      (d) => {
        d.paths["/things"].parameters = [
          { name: "X-Trace", in: "header", schema: { type: "string" } },
        ];
      },
    ],
    [
      "an operation's own parameter changes beside a path's",
      (d) => {
        d.paths["/things"].get.parameters[0].schema.type = "string";
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `limit`: type changed from `integer` to `string` — breaking for clients",
          "/paths/~1things/get/parameters/0/schema/type",
        ),
      ],
      (d) => {
        d.paths["/things"].parameters = [
          { name: "X-Trace", in: "header", schema: { type: "string" } },
        ];
      },
    ],
    [
      "a required parameter is added to a webhook",
      (d) => {
        d.webhooks.thingMade.parameters = [
          { name: "X-Sig", in: "header", required: true, schema: { type: "string" } },
        ];
      },
      [
        changed(
          "compatible",
          "minor",
          "thingMade",
          "`thingMade` header parameter `X-Sig`: added — compatible",
          "/webhooks/thingMade/parameters/0",
        ),
      ],
    ],
    [
      "a webhook's shared parameter changes",
      (d) => {
        d.webhooks.thingMade.parameters[0].schema.type = "integer";
      },
      [
        changed(
          "breaking",
          "major",
          "thingMade",
          "`thingMade` header parameter `X-Sig`: type changed from `string` to `integer` — breaking for receivers that read it",
          "/webhooks/thingMade/parameters/0/schema/type",
        ),
      ],
      (d) => {
        d.webhooks.thingMade.parameters = [
          { name: "X-Sig", in: "header", schema: { type: "string" } },
        ];
      },
    ],
    [
      "a webhook operation's own parameter changes beside a shared one",
      (d) => {
        d.webhooks.thingMade.post.parameters[1].schema.type = "integer";
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` header parameter `X-B`: type changed from `string` to `integer` — breaking for receivers that read it",
          "/webhooks/thingMade/post/parameters/1/schema/type",
        ),
      ],
      (d) => {
        d.webhooks.thingMade.post.parameters = [
          { name: "X-A", in: "header", schema: { type: "string" } },
          { name: "X-B", in: "header", schema: { type: "string" } },
        ];
        d.webhooks.thingMade.parameters = [
          { name: "X-Sig", in: "header", schema: { type: "string" } },
        ];
      },
    ],
    [
      "a parameter's type changes",
      (d) => {
        d.paths["/things"].get.parameters[0].schema.type = "string";
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `limit`: type changed from `integer` to `string` — breaking for clients",
          "/paths/~1things/get/parameters/0/schema/type",
        ),
      ],
    ],
    [
      "a parameter gets a default",
      (d) => {
        d.paths["/things"].get.parameters[0].schema.default = 10;
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `limit`: default set to `10` — breaking for clients that leave it out",
          "/paths/~1things/get/parameters/0/schema/default",
        ),
      ],
    ],
    [
      "a parameter is deprecated",
      (d) => {
        d.paths["/things"].get.parameters[0].deprecated = true;
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` query parameter `limit`: deprecated set to `true` — compatible",
          "/paths/~1things/get/parameters/0/deprecated",
        ),
      ],
    ],
    [
      "a required parameter is made optional",
      (d) => {
        d.paths["/things"].get.parameters[0].required = false;
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` query parameter `limit`: now optional — compatible",
          "/paths/~1things/get/parameters/0/required",
        ),
      ],
      (d) => {
        d.paths["/things"].get.parameters[0].required = true;
      },
    ],
    [
      "a parameter is renamed",
      (d) => {
        d.paths["/things"].get.parameters[0].name = "max";
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `limit`: removed — breaking for clients that send it",
          "/paths/~1things/get/parameters/0",
        ),
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` query parameter `max`: added — compatible",
          "/paths/~1things/get/parameters/1",
        ),
      ],
    ],
    [
      "a parameter without a name or a place gets a tighter bound",
      (d) => {
        d.paths["/things"].get.parameters[0].schema.maximum = 5;
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` ? parameter `?`: `maximum` changed from `100` to `5` — breaking for clients whose values it now refuses",
          "/paths/~1things/get/parameters/0/schema/maximum",
        ),
      ],
      (d) => {
        delete d.paths["/things"].get.parameters[0].name;
        delete d.paths["/things"].get.parameters[0].in;
      },
    ],
    [
      "an answer's media type is removed",
      (d) => {
        delete d.paths["/things"].get.responses["200"].content["application/json"];
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` 200: media type `application/json` removed — breaking for clients that read it",
          "/paths/~1things/get/responses/200/content/application~1json",
        ),
      ],
    ],
    [
      "a webhook's media type is replaced",
      (d) => {
        const content = d.webhooks.thingMade.post.requestBody.content;
        content["application/xml"] = content["application/json"];
        delete content["application/json"];
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` request body: media type `application/json` removed — breaking for receivers that read it",
          "/webhooks/thingMade/post/requestBody/content/application~1json",
        ),
        changed(
          "compatible",
          "minor",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` request body: media type `application/xml` added — compatible",
          "/webhooks/thingMade/post/requestBody/content/application~1xml",
        ),
      ],
    ],
    [
      "an answer header is deprecated",
      (d) => {
        d.paths["/things"].get.responses["200"].headers["X-Note"].deprecated = true;
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` 200 header `X-Note`: deprecated set to `true` — compatible",
          "/paths/~1things/get/responses/200/headers/X-Note/deprecated",
        ),
      ],
    ],
    [
      "a required answer header loses its required",
      (d) => {
        delete d.paths["/things"].get.responses["200"].headers.Link.required;
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
      "an operationId changes",
      (d) => {
        d.paths["/things"].get.operationId = "listAll";
      },
      [
        changed(
          "breaking",
          "major",
          "listAll",
          "`listAll`: operationId changed from `listThings` to `listAll` — breaking for generated clients",
          "/paths/~1things/get/operationId",
        ),
      ],
    ],
    [
      "an operation is deprecated",
      (d) => {
        d.paths["/things"].get.deprecated = true;
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings`: deprecated set to `true` — compatible",
          "/paths/~1things/get/deprecated",
        ),
      ],
    ],
    [
      "an operation gets a security requirement",
      (d) => {
        d.paths["/things"].get.security = [{ bearer: [] }];
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings`: security requirements changed — breaking for clients",
          "/paths/~1things/get/security",
        ),
      ],
    ],
    [
      "the document gets a security requirement",
      (d) => {
        d.security = [{ bearer: [] }];
      },
      [
        changed(
          "breaking",
          "major",
          "security",
          "`security`: security requirements changed — breaking for clients",
          "/security",
        ),
      ],
    ],
    [
      "a security scheme is declared",
      (d) => {
        d.components.securitySchemes = { bearer: { type: "http", scheme: "bearer" } };
      },
      [
        changed(
          "breaking",
          "major",
          "components.securitySchemes",
          "`components.securitySchemes`: add — breaking",
          "/components/securitySchemes",
        ),
      ],
    ],
    [
      "the servers change",
      (d) => {
        d.servers = [{ url: "https://things.example" }];
      },
      [
        changed(
          "compatible",
          "patch",
          "servers",
          "`servers`: changed — documentation only",
          "/servers",
        ),
      ],
    ],
    [
      "a shared member gets an enum",
      (d) => {
        d.components.schemas.Thing.properties.tag.enum = ["a", "b"];
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          '`listThings` 200 `[].tag`: values limited to `["a","b"]` — compatible (less is sent)',
          "/paths/~1things/get/responses/200/content/application~1json/schema/items/properties/tag/enum/0",
        ),
        changed(
          "breaking",
          "major",
          "createThing",
          '`createThing` request body `tag`: values limited to `["a","b"]` — breaking for clients that send another',
          "/paths/~1things/post/requestBody/content/application~1json/schema/properties/tag/enum/0",
        ),
        changed(
          "compatible",
          "minor",
          "thingMadeWebhook",
          'webhook `thingMadeWebhook` request body `tag`: values limited to `["a","b"]` — compatible (less is sent)',
          "/webhooks/thingMade/post/requestBody/content/application~1json/schema/properties/tag/enum",
        ),
      ],
    ],
    [
      "a value is added to a shared member's enum",
      (d) => {
        d.components.schemas.Thing.properties.tag.enum.push("c");
      },
      [
        changed(
          "possibly breaking",
          "minor",
          "listThings",
          "`listThings` 200 `[].tag`: enum value `c` added — possibly breaking for clients that read it (an unknown value)",
          "/paths/~1things/get/responses/200/content/application~1json/schema/items/properties/tag/enum/2",
        ),
        changed(
          "compatible",
          "minor",
          "createThing",
          "`createThing` request body `tag`: enum value `c` added — compatible",
          "/paths/~1things/post/requestBody/content/application~1json/schema/properties/tag/enum/2",
        ),
        changed(
          "possibly breaking",
          "minor",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` request body `tag`: enum value `c` added — possibly breaking for receivers that read it (an unknown value)",
          "/webhooks/thingMade/post/requestBody/content/application~1json/schema/properties/tag/enum/2",
        ),
      ],
      (d) => {
        d.components.schemas.Thing.properties.tag.enum = ["a", "b"];
      },
    ],
    [
      "a member removed from a schema two media types share",
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
      (d) => {
        const content = d.paths["/things"].post.requestBody.content;
        content["application/xml"] = structuredClone(content["application/json"]);
      },
    ],
    [
      "a webhook's body is made required",
      (d) => {
        d.webhooks.thingMade.post.requestBody.required = true;
      },
      [
        changed(
          "compatible",
          "minor",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` request body: now always sent — compatible",
          "/webhooks/thingMade/post/requestBody/required",
        ),
      ],
    ],
    [
      "a required body is added to a webhook",
      (d) => {
        d.webhooks.thingMade.post.requestBody = {
          required: true,
          content: { "application/json": { schema: { type: "object" } } },
        };
      },
      [
        changed(
          "compatible",
          "minor",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` request body: added — compatible",
          "/webhooks/thingMade/post/requestBody",
        ),
      ],
      (d) => {
        delete d.webhooks.thingMade.post.requestBody;
      },
    ],
    [
      "a webhook answer's type changes",
      (d) => {
        d.webhooks.thingMade.post.responses["200"].content["application/json"].schema.type =
          "string";
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` 200: type changed from `object` to `string` — breaking for receivers",
          "/webhooks/thingMade/post/responses/200/content/application~1json/schema/type",
        ),
      ],
      (d) => {
        d.webhooks.thingMade.post.responses["200"].content = {
          "application/json": { schema: { type: "object" } },
        };
      },
    ],
    [
      "a webhook answer's media type is removed",
      (d) => {
        delete d.webhooks.thingMade.post.responses["200"].content["application/json"];
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` 200: media type `application/json` removed — breaking for receivers that send it",
          "/webhooks/thingMade/post/responses/200/content/application~1json",
        ),
      ],
      (d) => {
        d.webhooks.thingMade.post.responses["200"].content = {
          "application/json": { schema: { type: "object" } },
        };
      },
    ],
    [
      "a path with two operations is removed",
      (d) => {
        delete d.paths["/things"];
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings`: operation removed — breaking for clients that call it",
          "/paths/~1things/get",
        ),
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
      "a path with a tilde in its name is added",
      (d) => {
        d.paths["/a~b"] = {
          get: { operationId: "tilde", responses: { "200": { description: "ok" } } },
        };
      },
      [
        changed(
          "compatible",
          "minor",
          "tilde",
          "`tilde`: operation added — compatible",
          "/paths/~1a~0b/get",
        ),
      ],
    ],
    [
      "the first webhook is added, with the webhooks section",
      (d) => {
        d.webhooks = { thingMade: structuredClone(BASE.webhooks.thingMade) };
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook`: webhook added — breaking: without `x-event` it is sent to every registered endpoint, and their receivers do not know it",
          "/webhooks/thingMade/post",
        ),
      ],
      (d) => {
        delete d.webhooks;
      },
    ],
    [
      "the webhooks section is removed",
      (d) => {
        delete d.webhooks;
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
    [
      "two parameters are added to an operation that had none",
      (d) => {
        d.paths["/things"].post.parameters = [
          { name: "a", in: "query", schema: { type: "string" } },
          { name: "b", in: "query", required: true, schema: { type: "string" } },
        ];
      },
      [
        changed(
          "compatible",
          "minor",
          "createThing",
          "`createThing` query parameter `a`: added — compatible",
          "/paths/~1things/post/parameters/0",
        ),
        changed(
          "breaking",
          "major",
          "createThing",
          "`createThing` query parameter `b`: added, required — breaking for clients that leave it out",
          "/paths/~1things/post/parameters/1",
        ),
      ],
    ],
    [
      "an operation without answers gets two",
      (d) => {
        d.paths["/things"].get.responses = {
          "200": { description: "ok" },
          "404": { description: "none" },
        };
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` 200: status added — compatible",
          "/paths/~1things/get/responses/200",
        ),
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` 404: status added — compatible",
          "/paths/~1things/get/responses/404",
        ),
      ],
      (d) => {
        delete d.paths["/things"].get.responses;
      },
    ],
    [
      "an answer without headers gets two",
      (d) => {
        d.paths["/things"].post.responses["200"].headers = {
          A: { schema: { type: "string" } },
          B: { required: true, schema: { type: "string" } },
        };
      },
      [
        changed(
          "compatible",
          "minor",
          "createThing",
          "`createThing` 200 header `A`: header added — compatible",
          "/paths/~1things/post/responses/200/headers/A",
        ),
        changed(
          "compatible",
          "minor",
          "createThing",
          "`createThing` 200 header `B`: header added — compatible",
          "/paths/~1things/post/responses/200/headers/B",
        ),
      ],
    ],
    [
      "an answer without content gets a media type",
      (d) => {
        d.paths["/things"].post.responses["200"].content = {
          "application/json": { schema: { type: "object" } },
        };
      },
      [
        changed(
          "compatible",
          "minor",
          "createThing",
          "`createThing` 200: media type `application/json` added — compatible",
          "/paths/~1things/post/responses/200/content/application~1json",
        ),
      ],
    ],
    [
      "a link is added to an answer (no rule of ours: the library's verdict stands)",
      (d) => {
        d.paths["/things"].get.responses["200"].links.more = { operationId: "createThing" };
      },
      [
        changed(
          "possibly breaking",
          "minor",
          "listThings",
          "`listThings` 200: add — possibly breaking (not classified: review it)",
          "/paths/~1things/get/responses/200/links/more",
        ),
      ],
      (d) => {
        d.paths["/things"].get.responses["200"].links = { next: { operationId: "listThings" } };
      },
    ],
    [
      "an operation is replaced by null",
      (d) => {
        d.paths["/things"].get = null;
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings`: operation replaced — breaking",
          "/paths/~1things/get",
        ),
      ],
    ],
    [
      "a webhook's operation is replaced by null",
      (d) => {
        d.webhooks.thingMade.post = null;
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook`: webhook replaced — breaking for receivers",
          "/webhooks/thingMade/post",
        ),
      ],
    ],
    [
      "the tags change",
      (d) => {
        d.tags = [{ name: "things" }];
      },
      [changed("compatible", "patch", "tags", "`tags`: changed — documentation only", "/tags")],
    ],
    [
      "a webhook named version is added",
      (d) => {
        d.webhooks.version = {
          post: { "x-event": EVENT, responses: { "200": { description: "ok" } } },
        };
      },
      [
        changed(
          "compatible",
          "minor",
          "POST",
          "webhook `POST version`: webhook added — compatible (sent only to endpoints that subscribe)",
          "/webhooks/version/post",
        ),
      ],
    ],
    [
      "an answer's description changes",
      (d) => {
        d.paths["/things"].post.responses["200"].description = "made";
      },
      [
        changed(
          "compatible",
          "patch",
          "createThing",
          "`createThing`: description changed — wording only",
          "/paths/~1things/post/responses/200/description",
        ),
      ],
    ],
    [
      "a request body member gets a default",
      (d) => {
        d.components.schemas.Thing.properties.tag.default = "none";
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` 200 `[].tag`: default set to `none` — compatible",
          "/paths/~1things/get/responses/200/content/application~1json/schema/items/properties/tag/default",
        ),
        changed(
          "compatible",
          "minor",
          "createThing",
          "`createThing` request body `tag`: default set to `none` — compatible",
          "/paths/~1things/post/requestBody/content/application~1json/schema/properties/tag/default",
        ),
        changed(
          "compatible",
          "minor",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` request body `tag`: default set to `none` — compatible",
          "/webhooks/thingMade/post/requestBody/content/application~1json/schema/properties/tag/default",
        ),
      ],
    ],
    [
      "a webhook's body is made optional",
      (d) => {
        d.webhooks.thingMade.post.requestBody.required = false;
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` request body: now optional — breaking for receivers that read it",
          "/webhooks/thingMade/post/requestBody/required",
        ),
      ],
      (d) => {
        d.webhooks.thingMade.post.requestBody.required = true;
      },
    ],
    [
      "a required header of a webhook's answer is removed",
      (d) => {
        delete d.webhooks.thingMade.post.responses["200"].headers["X-R"];
      },
      [
        changed(
          "possibly breaking",
          "minor",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` 200 header `X-R`: header removed — possibly breaking for receivers",
          "/webhooks/thingMade/post/responses/200/headers/X-R",
        ),
      ],
      (d) => {
        d.webhooks.thingMade.post.responses["200"].headers = {
          "X-R": { required: true, schema: { type: "string" } },
        };
      },
    ],
    [
      "a webhook's parameter is removed",
      (d) => {
        d.webhooks.thingMade.post.parameters.pop();
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` header parameter `X-A`: removed — breaking for receivers that read it",
          "/webhooks/thingMade/post/parameters/0",
        ),
      ],
      (d) => {
        d.webhooks.thingMade.post.parameters = [
          { name: "X-A", in: "header", schema: { type: "string" } },
        ];
      },
    ],
    [
      "a webhook's event gains a member",
      (d) => {
        d.webhooks.thingMade.post["x-event"].on = "update";
      },
      [
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook`: `x-event` set to `update` — breaking for endpoints subscribed by event type: who is sent it changes",
          "/webhooks/thingMade/post/x-event/on",
        ),
      ],
      (d) => {
        d.webhooks.thingMade.post["x-event"] = { type: "thing.made", table: "things" };
      },
    ],
    [
      "the items of an array member change type",
      (d) => {
        d.components.schemas.Thing.properties.tags.items.type = "integer";
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` 200 `[].tags[]`: type changed from `string` to `integer` — breaking for clients that read it",
          "/paths/~1things/get/responses/200/content/application~1json/schema/items/properties/tags/items/type",
        ),
        changed(
          "breaking",
          "major",
          "createThing",
          "`createThing` request body `tags[]`: type changed from `string` to `integer` — breaking for clients",
          "/paths/~1things/post/requestBody/content/application~1json/schema/properties/tags/items/type",
        ),
        changed(
          "breaking",
          "major",
          "thingMadeWebhook",
          "webhook `thingMadeWebhook` request body `tags[]`: type changed from `string` to `integer` — breaking for receivers that read it",
          "/webhooks/thingMade/post/requestBody/content/application~1json/schema/properties/tags/items/type",
        ),
      ],
      (d) => {
        d.components.schemas.Thing.properties.tags = { type: "array", items: { type: "string" } };
      },
    ],
    [
      "the paths section is added to a document of webhooks alone",
      (d) => {
        d.paths = structuredClone(BASE.paths);
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings`: operation added — compatible",
          "/paths/~1things/get",
        ),
        changed(
          "compatible",
          "minor",
          "createThing",
          "`createThing`: operation added — compatible",
          "/paths/~1things/post",
        ),
      ],
      (d) => {
        delete d.paths;
      },
    ],
    [
      "a webhook with a summary is added",
      (d) => {
        d.webhooks.thingGone = {
          summary: "Gone",
          post: {
            operationId: "thingGoneWebhook",
            "x-event": EVENT,
            responses: { "200": { description: "ok" } },
          },
        };
      },
      [
        changed(
          "compatible",
          "minor",
          "thingGoneWebhook",
          "webhook `thingGoneWebhook`: webhook added — compatible (sent only to endpoints that subscribe)",
          "/webhooks/thingGone/post",
        ),
      ],
    ],
    [
      "an extension of a request body changes (the library's verdict)",
      (d) => {
        d.paths["/things"].post.requestBody["x-codegen"].name = "other";
      },
      [
        changed(
          "possibly breaking",
          "minor",
          "createThing",
          "`createThing` request body: replace — possibly breaking (not classified: review it)",
          "/paths/~1things/post/requestBody/x-codegen/name",
        ),
      ],
      (d) => {
        d.paths["/things"].post.requestBody["x-codegen"] = { name: "thing" };
      },
    ],
    [
      "a parameter is inserted before one that gets a default",
      (d) => {
        const limit = d.paths["/things"].get.parameters[0];
        limit.schema.default = 5;
        d.paths["/things"].get.parameters = [
          { name: "first", in: "query", schema: { type: "string" } },
          limit,
        ];
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `limit`: default set to `5` — breaking for clients that leave it out",
          "/paths/~1things/get/parameters/0/schema/default",
        ),
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` query parameter `first`: added — compatible",
          "/paths/~1things/get/parameters/1",
        ),
      ],
    ],
    [
      "the first parameter is removed and the second gets a default",
      (d) => {
        const parameters = d.paths["/things"].get.parameters;
        parameters[1].schema.default = 5;
        parameters.shift();
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `limit`: removed — breaking for clients that send it",
          "/paths/~1things/get/parameters/0",
        ),
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `second`: default set to `5` — breaking for clients that leave it out",
          "/paths/~1things/get/parameters/1/schema/default",
        ),
      ],
      (d) => {
        d.paths["/things"].get.parameters.push({
          name: "second",
          in: "query",
          schema: { type: "string" },
        });
      },
    ],
    [
      "an operation's answers are replaced by a string",
      (d) => {
        d.paths["/things"].post.responses = "none";
      },
      [
        changed(
          "breaking",
          "major",
          "createThing",
          "`createThing` 200: status removed — breaking for clients that handle it",
          "/paths/~1things/post/responses/200",
        ),
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
      "a parameter takes content instead of a schema (no rule of ours: the library's verdicts stand)",
      (d) => {
        const limit = d.paths["/things"].get.parameters[0];
        delete limit.schema;
        limit.content = { "application/json": { schema: { type: "integer" } } };
      },
      [
        changed(
          "breaking",
          "major",
          "listThings",
          "`listThings` query parameter `limit`: remove — breaking",
          "/paths/~1things/get/parameters/0/schema",
        ),
        changed(
          "possibly breaking",
          "minor",
          "listThings",
          "`listThings` query parameter `limit`: add — possibly breaking (not classified: review it)",
          "/paths/~1things/get/parameters/0/content",
        ),
      ],
    ],
    [
      "links are added to an answer that had none (the library's verdict)",
      (d) => {
        d.paths["/things"].get.responses["200"].links = { next: { operationId: "listThings" } };
      },
      [
        changed(
          "possibly breaking",
          "minor",
          "listThings",
          "`listThings` 200: annotation (links) to Response 200 — possibly breaking (not classified: review it)",
          "/paths/~1things/get/responses/200/links",
        ),
      ],
    ],
    [
      "an operation's answers are replaced by null",
      (d) => {
        d.paths["/things"].post.responses = null;
      },
      [
        changed(
          "breaking",
          "major",
          "createThing",
          "`createThing` 200: status removed — breaking for clients that handle it",
          "/paths/~1things/post/responses/200",
        ),
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
      "a required answer header named like an object's own property is removed",
      (d) => {
        delete d.paths["/things"].post.responses["200"].headers;
      },
      [
        changed(
          "breaking",
          "major",
          "createThing",
          "`createThing` 200 header `constructor`: header removed — breaking for clients that read it",
          "/paths/~1things/post/responses/200/headers/constructor",
        ),
      ],
      (d) => {
        d.paths["/things"].post.responses["200"].headers = {
          constructor: { required: true, schema: { type: "string" } },
        };
      },
    ],
    [
      "an answer's media type is renamed to one with a charset (the library's verdict)",
      (d) => {
        const content = d.paths["/things"].get.responses["200"].content;
        content["application/json; charset=utf-8"] = content["application/json"];
        delete content["application/json"];
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          "`listThings` 200: Content type of Request Body content (content) — compatible",
          "/paths/~1things/get/responses/200/content",
        ),
      ],
    ],
    [
      "a path parameter is renamed (the library's verdicts)",
      (d) => {
        d.paths["/things/{thingId}"] = d.paths["/things/{id}"];
        delete d.paths["/things/{id}"];
        d.paths["/things/{thingId}"].get.parameters[0].name = "thingId";
      },
      [
        changed("compatible", "minor", "paths", "`paths`: rename — compatible", "/paths"),
        changed(
          "compatible",
          "minor",
          "getThing",
          "`getThing` path parameter `id`: required path parameter `id` — compatible",
          "/paths/~1things~1{id}/get/parameters/0/name",
        ),
      ],
      (d) => {
        d.paths["/things/{id}"] = {
          get: {
            operationId: "getThing",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
            responses: { "200": { description: "ok" } },
          },
        };
      },
    ],
    [
      "an array member gets a schema for its items",
      (d) => {
        d.components.schemas.Thing.properties.tags.items = { type: "string" };
      },
      [
        changed(
          "compatible",
          "minor",
          "listThings",
          '`listThings` 200 `[].tags`: `items` set to `{"type":"string"}` — compatible (less is sent)',
          "/paths/~1things/get/responses/200/content/application~1json/schema/items/properties/tags/items",
        ),
        changed(
          "breaking",
          "major",
          "createThing",
          '`createThing` request body `tags`: `items` set to `{"type":"string"}` — breaking for clients whose values it now refuses',
          "/paths/~1things/post/requestBody/content/application~1json/schema/properties/tags/items",
        ),
        changed(
          "compatible",
          "minor",
          "thingMadeWebhook",
          'webhook `thingMadeWebhook` request body `tags`: `items` set to `{"type":"string"}` — compatible (less is sent)',
          "/webhooks/thingMade/post/requestBody/content/application~1json/schema/properties/tags/items",
        ),
      ],
      (d) => {
        d.components.schemas.Thing.properties.tags = { type: "array" };
      },
    ],
  ])(
    "when %s, then each change is placed and said as the rules say",
    (_name, edit, expected, setup) => {
      // A setup edits both sides, for a change to something the base document does not have.
      const before = structuredClone(BASE);
      setup?.(before);
      const after = structuredClone(before);
      edit(after);

      expect(diffDocuments(before, after)).toEqual(expected);
    },
  );
});
