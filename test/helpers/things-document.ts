// A small OpenAPI document of "things" for conformance runs against a scripted deployment
// (scripted-deployment.ts): a collection with int64 ids, its examples, scopes and schemes, and
// the answers of a deployment that conforms to it. Each call makes a fresh copy to change.

export const TOKEN = "strong-token";
export const WEAK_TOKEN = "token-without-scopes";
export const FERN = { id: 7, name: "fern" };

const ERROR = {
  type: "object",
  required: ["message"],
  properties: { message: { type: "string" } },
};
const THING = {
  type: "object",
  required: ["id", "name"],
  properties: { id: { type: "integer", format: "int64" }, name: { type: "string" } },
};

const content = (
  schema: unknown,
  examples: Record<string, unknown> = {},
  media = "application/json",
) => ({
  content: { [media]: { schema, examples } },
});
const refusals = () => ({
  "401": { description: "no token", ...content(ERROR) },
  "403": { description: "a scope missing", ...content(ERROR) },
});

/** An operation object, as a test changes it. */
export type Operation = Record<string, unknown>;
export interface ThingsDocument {
  security?: unknown[];
  components: Record<string, Record<string, unknown>>;
  paths: Record<string, Record<string, Operation | unknown[]>>;
  [key: string]: unknown;
}

/** The operation at `path` and `method` of `document`, to change. */
export const operationAt = (document: ThingsDocument, path: string, method: string): Operation =>
  document.paths[path]?.[method] as Operation;

export function thingsDocument(): ThingsDocument {
  return {
    openapi: "3.1.0",
    info: { title: "things", version: "1.0.0" },
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        keyHeader: { type: "apiKey", in: "header", name: "x-key" },
        cookieKey: { type: "apiKey", in: "cookie", name: "key" },
      },
    },
    paths: {
      "/things": {
        get: {
          operationId: "listThings",
          "x-required-scopes": ["things:read"],
          responses: {
            "200": { description: "the things", ...content({ type: "array", items: THING }) },
            ...refusals(),
          },
        },
        post: {
          operationId: "createThing",
          "x-required-scopes": ["things:read", "things:write"],
          requestBody: content(THING, { fern: { value: FERN } }),
          responses: {
            "201": { description: "made", ...content(THING, { fern: { value: FERN } }) },
            "400": { description: "invalid", ...content(ERROR) },
            "409": { description: "taken", ...content(ERROR) },
            ...refusals(),
            "401": {
              description: "no token",
              ...content(ERROR, {
                unsigned: {
                  value: { message: "a token is needed" },
                  "x-request": { body: '{"id":7,"name":"fern"}', credentials: false },
                },
              }),
            },
          },
        },
      },
      "/things/{thingId}": {
        parameters: [
          {
            name: "thingId",
            in: "path",
            required: true,
            schema: { type: "integer", format: "int64" },
            examples: {
              missing: { value: 404 },
              fern: { value: 7 },
              gone: { value: 8 },
              several: { value: 9 },
              far: { value: 10 },
              rename: { value: 7 },
            },
          },
        ],
        get: {
          operationId: "getThing",
          responses: {
            "200": {
              description: "the thing",
              ...content(THING, {
                fern: { value: FERN },
                // Its value is elsewhere: the answer is not compared.
                far: { externalValue: "https://things.example/far.json" },
              }),
            },
            "300": { description: "several things", "x-example-requests": ["several"] },
            "404": {
              description: "no such thing",
              ...content(ERROR, {
                missing: { value: { message: "no thing 404" } },
                gone: {
                  value: { message: "no thing 8" },
                  "x-setup": [
                    { method: "POST", target: "/things", body: '{"id":8,"name":"moss"}' },
                    { method: "DELETE", target: "/things/8" },
                  ],
                },
              }),
            },
            ...refusals(),
            "401": {
              description: "no token",
              ...content(ERROR, {
                anonymous: {
                  value: { message: "no token" },
                  "x-request": { target: "/things/7", credentials: false },
                },
              }),
            },
          },
        },
        patch: {
          operationId: "updateThing",
          requestBody: content(
            { type: "object", properties: { name: { type: "string" } } },
            { rename: { value: { name: "fir" } } },
            "application/merge-patch+json",
          ),
          responses: {
            "200": {
              description: "changed",
              ...content(THING, { rename: { value: { id: 7, name: "fir" } } }),
            },
            ...refusals(),
          },
        },
        delete: {
          operationId: "deleteThing",
          responses: {
            "204": { description: "gone" },
            "400": {
              description: "a body, where none is taken",
              ...content(ERROR, {
                bodied: {
                  value: { message: "no body is taken" },
                  "x-request": { target: "/things/7", body: "{}" },
                },
              }),
            },
            "404": { description: "no such thing", ...content(ERROR) },
            ...refusals(),
          },
        },
      },
      "/count": {
        get: {
          operationId: "countThings",
          responses: {
            "200": {
              description: "how many",
              ...content(
                { type: "string" },
                { count: { value: "3", "x-request": {} } },
                "text/plain",
              ),
            },
            ...refusals(),
          },
        },
      },
    },
  };
}

/**
 * The document with its data declared: things (int64 ids, filtered on name) and tags (keyed by
 * their label, which --id-range cannot give), each with plain actions (x-table, x-action).
 */
export function thingsAndTagsDocument(): ThingsDocument {
  const document = thingsDocument();
  const thing = {
    ...THING,
    "x-table": { name: "things", key: "id" },
    properties: {
      id: { type: "integer", format: "int64" },
      name: { type: "string", maxLength: 40, "x-indexed": true },
    },
  };
  const tag = {
    type: "object",
    "x-table": { name: "tags", key: "label" },
    required: ["label", "color"],
    properties: {
      label: { type: "string", maxLength: 20 },
      color: { type: "string", maxLength: 20, "x-indexed": true },
    },
  };
  document.components["schemas"] = { Thing: thing, Tag: tag };
  const act = (path: string, method: string, table: string, action: string) =>
    Object.assign(operationAt(document, path, method), { "x-table": table, "x-action": action });
  act("/things", "post", "things", "create")["requestBody"] = content(thing, {
    fern: { value: FERN },
  });
  act("/things", "get", "things", "list")["parameters"] = [
    { name: "name", in: "query", schema: { type: "string", maxLength: 40 } },
  ];
  act("/things/{thingId}", "get", "things", "get");
  act("/things/{thingId}", "delete", "things", "delete");
  document.paths["/tags"] = {
    post: {
      operationId: "createTag",
      "x-table": "tags",
      "x-action": "create",
      requestBody: content(tag),
      responses: { "201": { description: "made", ...content(tag) }, ...refusals() },
    },
    get: {
      operationId: "listTags",
      "x-table": "tags",
      "x-action": "list",
      parameters: [{ name: "color", in: "query", schema: { type: "string", maxLength: 20 } }],
      responses: {
        "200": { description: "the tags", ...content({ type: "array", items: tag }) },
        ...refusals(),
      },
    },
  };
  document.paths["/tags/{label}"] = {
    get: {
      operationId: "getTag",
      "x-table": "tags",
      "x-action": "get",
      parameters: [{ name: "label", in: "path", required: true, schema: { type: "string" } }],
      responses: { "200": { description: "the tag", ...content(tag) }, ...refusals() },
    },
  };
  return document;
}
