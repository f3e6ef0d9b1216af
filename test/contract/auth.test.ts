import { describe, expect, it } from "vitest";
import {
  expectError,
  OTHER_TOKEN,
  plantJson,
  TOKEN,
  uniqueId,
  useTestApp,
} from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";

describe.each(storeEngines)("bearer authentication ($name)", (engine) => {
  const app = useTestApp(engine);

  const post = (headers: Record<string, string>, payload: string) =>
    app().app.inject({ method: "POST", url: "/plants", headers, payload });

  it.each([
    ["no Authorization header", {}],
    ["an empty Authorization header", { authorization: "" }],
    ["the Basic scheme", { authorization: "Basic dXNlcjpwYXNzd29yZA==" }],
    ["a token without a scheme", { authorization: TOKEN }],
  ])(
    "when the request has %s, then 401 with a plain Bearer challenge and nothing is stored",
    async (_what, auth) => {
      const id = uniqueId();
      const res = await post({ "content-type": "application/json", ...auth }, plantJson(id, "x"));
      expectError(res, 401);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="plantstore"');
      expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
    },
  );

  it.each([
    ["an unknown token", `Bearer ${TOKEN}x`],
    ["a token differing in case", `Bearer ${TOKEN.toUpperCase()}`],
    ["a prefix of a valid token", `Bearer ${TOKEN.slice(0, -1)}`],
    ["the scheme with no token", "Bearer"],
    ["two tokens", `Bearer ${TOKEN} ${TOKEN}`],
  ])(
    'when the request has %s, then 401 with error="invalid_token" and nothing is stored',
    async (_what, authorization) => {
      const id = uniqueId();
      const res = await post(
        { "content-type": "application/json", authorization },
        plantJson(id, "x"),
      );
      expectError(res, 401);
      expect(res.headers["www-authenticate"]).toMatch(
        /^Bearer realm="plantstore", error="invalid_token", error_description="[^"]+"$/,
      );
      expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
    },
  );

  it.each(["Bearer", "bearer", "BEARER", "bEaReR"])(
    "when the scheme is spelled %s, then the token is accepted",
    async (scheme) => {
      const id = uniqueId();
      const res = await post(
        { "content-type": "application/json", authorization: `${scheme} ${TOKEN}` },
        plantJson(id, "x"),
      );
      expect(res.statusCode).toBe(200);
      expect(await app().db.store.resources.plants.get(id)).toStrictEqual({ id, name: "x" });
    },
  );

  it("when any configured token is used, then it is accepted", async () => {
    const id = uniqueId();
    const res = await post(
      { "content-type": "application/json", authorization: `Bearer ${OTHER_TOKEN}` },
      plantJson(id, "x"),
    );
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ["invalid JSON", "application/json", "{nope"],
    ["a body that is not an object", "application/json", "[1,2]"],
    ["a missing name", "application/json", '{"id":1}'],
    ["another content type", "text/plain", "hello"],
    ["no body", "application/json", ""],
  ])(
    "when the token is missing and the body has %s, then authentication answers first (401)",
    async (_what, type, payload) => {
      expectError(await post({ "content-type": type }, payload), 401);
    },
  );
});
