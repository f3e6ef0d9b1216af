// Every operation of the document that takes a body accepts the media types it declares, with
// or without charset=utf-8, and answers any other with 415 naming exactly those; read from the
// document, so an operation that declares application/merge-patch+json is covered unchanged.
import { describe, expect, it } from "vitest";
import { acceptedMedia } from "../../src/http/media-types.ts";
import { createApi } from "../../src/openapi/backend.ts";
import { bodyMedia } from "../../src/openapi/body-media.ts";
import { AUTH, expectError, useTestApp } from "../helpers/app.ts";
import { documentedOperations } from "../helpers/document.ts";
import { storeEngines } from "../helpers/stores.ts";

const api = await createApi();
const concrete = new Map(documentedOperations().map((o) => [o.operationId, o.path]));
const withBodies = api.operations.flatMap((operation) => {
  const types = bodyMedia(operation).map((media) => media.type);
  const path = concrete.get(operation.operationId ?? "");
  return types.length === 0 || path === undefined
    ? []
    : [{ id: operation.operationId, method: operation.method.toUpperCase(), path, types }];
});
const UNDECLARED = ["text/plain", "application/merge-patch+json", "application/problem+json"];

describe.each(storeEngines)("request media types from the document ($name)", (engine) => {
  const app = useTestApp(engine);
  const send = (operation: (typeof withBodies)[number], type: string) =>
    app().app.inject({
      method: operation.method as "POST",
      url: operation.path,
      headers: { ...AUTH, "content-type": type },
      payload: "{}",
    });

  it("when the document is read, then some operation takes a body", () => {
    expect(withBodies.length).toBeGreaterThan(0);
  });

  describe.each(withBodies)("$method $path ($id)", (operation) => {
    it.each(operation.types.flatMap((type) => [type, `${type}; charset=utf-8`]))(
      "when the body is %s, then it is read as JSON (not 415)",
      async (type) => {
        const res = await send(operation, type);
        expect(res.statusCode, res.body).not.toBe(415);
        expect(res.statusCode, res.body).toBeLessThan(500);
      },
    );

    it.each(UNDECLARED.filter((type) => !operation.types.includes(type)))(
      "when the body is %s, which it does not declare, then 415 names the types it does",
      async (type) => {
        const said = acceptedMedia(operation.types).said;
        const body = expectError(await send(operation, type), 415);
        expect(body.message).toBe(`the content type must be ${said}, got "${type}"`);
      },
    );
  });
});
