// Request media types come from the document, per operation: the JSON types its requestBody
// declares (application/json, application/merge-patch+json, any +json type) are accepted and
// read as JSON with the same int64 exactness, each checked by its own schema; any other type
// is 415 naming the declared ones. Shown on a small document of its own, since plants.yaml
// declares application/json alone.
import type { Document, Operation } from "openapi-backend";
import { describe, expect, it } from "vitest";
import { parseBody } from "../../src/http/body.ts";
import { inputReader } from "../../src/http/inputs.ts";
import { acceptedMedia, matchContentType } from "../../src/http/media-types.ts";
import { createApi } from "../../src/openapi/backend.ts";
import { bodyMedia } from "../../src/openapi/body-media.ts";
import { isJsonMediaType } from "../../src/text/media-type.ts";

const MERGE_PATCH = "application/merge-patch+json";
const ID = { type: "integer", format: "int64" };
const answers = { "200": { description: "done" } };

/** PATCH declares merge-patch alone; PUT declares JSON and a vendor type, each its own schema. */
const document = {
  openapi: "3.1.0",
  info: { title: "media types", version: "1" },
  paths: {
    "/things/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: ID }],
      patch: {
        operationId: "patchThing",
        requestBody: {
          required: true,
          content: {
            [MERGE_PATCH]: {
              // 3.1's nullable, as a merge patch deletes a member: null.
              schema: {
                type: "object",
                properties: { owner: ID, name: { type: ["string", "null"] } },
                minProperties: 1,
              },
            },
          },
        },
        responses: answers,
      },
      put: {
        operationId: "putThing",
        requestBody: {
          required: true,
          content: {
            "application/json; charset=utf-8": {
              schema: {
                type: "object",
                required: ["name"],
                properties: { name: { type: "string" } },
              },
            },
            "application/vnd.things.v2+json": {
              schema: {
                type: "object",
                required: ["title"],
                properties: { title: { type: "string" } },
              },
            },
          },
        },
        responses: answers,
      },
    },
  },
} as unknown as Document;

const operation = (id: string, content: Record<string, unknown> | undefined) =>
  ({
    operationId: id,
    method: "post",
    path: "/x",
    ...(content === undefined ? {} : { requestBody: { content } }),
  }) as unknown as Operation;

describe("the media types an operation declares", () => {
  it("when an operation declares JSON types, then each is read, lower case and without parameters, in order", () => {
    const media = bodyMedia(
      operation("a", {
        "Application/JSON; charset=utf-8": { schema: {} },
        [MERGE_PATCH]: { schema: {} },
        "application/vnd.example+json": {},
      }),
    );
    expect(media.map((m) => m.type)).toEqual([
      "application/json",
      MERGE_PATCH,
      "application/vnd.example+json",
    ]);
  });

  it("when an operation takes no body, then it declares none", () => {
    expect(bodyMedia(operation("a", undefined))).toEqual([]);
  });

  it.each(["text/plain", "application/xml", "*/*", "application/*", "multipart/form-data"])(
    "when an operation declares %s, then start-up stops naming the operation and the type",
    (type) => {
      expect(() => bodyMedia(operation("upload", { [type]: {} }))).toThrow(
        new RegExp(
          `^upload: request bodies of type ${type.replaceAll("*", "\\*")} are not supported`,
        ),
      );
    },
  );

  it.each([
    ["application/json", true],
    [MERGE_PATCH, true],
    ["application/problem+json", true],
    ["application/+json", false],
    ["application/jsonx", false],
    ["text/json", false],
    ["*/*+json", false],
  ])("when the type is %s, then it is JSON: %s", (type, json) => {
    expect(isJsonMediaType(type)).toBe(json);
  });
});

describe("a Content-Type against the declared types", () => {
  const both = acceptedMedia(["application/json", MERGE_PATCH]);

  it.each([
    ["application/json", "application/json"],
    ["application/json; charset=utf-8", "application/json"],
    [MERGE_PATCH, MERGE_PATCH],
    ["Application/Merge-Patch+JSON; charset=UTF-8", MERGE_PATCH],
    [`${MERGE_PATCH};charset="utf-8"`, MERGE_PATCH],
  ])("when it is %s, then the declared type %s is matched", (header, type) => {
    expect(matchContentType(header, both)).toBe(type);
  });

  it.each([
    [
      "text/plain",
      'the content type must be application/json or application/merge-patch+json, got "text/plain"',
    ],
    [
      undefined,
      "a Content-Type header is required: application/json or application/merge-patch+json",
    ],
    [`${MERGE_PATCH}; charset=latin1`, 'JSON must be sent as UTF-8, got charset "latin1"'],
    // A proxy that keeps the last charset would read the body otherwise than the first says.
    [
      "application/json; charset=utf-8; charset=latin1",
      "the Content-Type header names a charset more than once",
    ],
    [
      "application/problem+json",
      'the content type must be application/json or application/merge-patch+json, got "application/problem+json"',
    ],
  ])("when it is %s, then 415 names the declared types", (header, message) => {
    expect(matchContentType(header, both)).toEqual({ status: 415, message });
  });

  it("when it is longer than any media type, then it is refused before it is split", () => {
    const problem = matchContentType(`application/json;${" ".repeat(100_000)}`, both);
    expect(problem).toMatchObject({ status: 415, message: expect.stringMatching(/longer than/) });
  });
});

describe("bodies of each declared type, read and checked as the server does", async () => {
  const api = await createApi(document);
  const reader = (id: string) => {
    const op = api.operations.find((o) => o.operationId === id) as Operation;
    return inputReader(op, api.validatorsFor(op));
  };
  const send = (id: string, type: string, text: string) => {
    const { read, body } = reader(id);
    const headers = { "content-type": type };
    return read({
      target: "/things/7",
      params: { id: "7" },
      query: {},
      headers,
      body: parseBody(headers, Buffer.from(text), body?.accepted),
    });
  };

  it("when a merge patch is sent where it is declared, then it is read as JSON with its int64s exact", () => {
    const read = send("patchThing", MERGE_PATCH, '{"owner":9007199254740993,"name":"x"}');
    expect(read).toEqual({
      ok: true,
      typed: expect.objectContaining({ body: { owner: 9007199254740993n, name: "x" } }),
    });
  });

  it("when a merge patch sets a member that may be null to null, then it is read as sent", () => {
    expect(send("patchThing", MERGE_PATCH, '{"name":null}')).toMatchObject({
      ok: true,
      typed: { body: { name: null } },
    });
  });

  it("when a merge patch breaks its schema, then 400 says why", () => {
    expect(send("patchThing", MERGE_PATCH, '{"owner":"me"}')).toEqual({
      ok: false,
      problem: { status: 400, message: "owner must be an integer (got string)" },
    });
  });

  it("when application/json is sent where only merge patches are declared, then 415 names what is", () => {
    expect(send("patchThing", "application/json", "{}")).toEqual({
      ok: false,
      problem: {
        status: 415,
        message: 'the content type must be application/merge-patch+json, got "application/json"',
      },
    });
  });

  it("when an operation declares two types with two schemas, then each body is checked by its own", () => {
    const vendor = "application/vnd.things.v2+json";
    expect(send("putThing", "application/json", '{"name":"a"}').ok).toBe(true);
    expect(send("putThing", vendor, '{"title":"a"}').ok).toBe(true);
    expect(send("putThing", vendor, '{"name":"a"}')).toMatchObject({
      problem: { message: "title is required" },
    });
    expect(send("putThing", "application/json", '{"title":"a"}')).toMatchObject({
      problem: { message: "name is required" },
    });
  });
});
