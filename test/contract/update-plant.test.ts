// PATCH /plants/{id} (updatePlant) through app.inject on both engines: what it changes, the
// bodies and media types it takes, exact ids, scopes, and its metrics. Every answer is also
// checked against the YAML. 401, 405, 408, 429, 431, 500 and 503 are the shared answers of
// every operation, covered once for all by the suites that read the document.

import { describe, expect, it } from "vitest";
import { issueToken } from "../../src/auth/issue-token.ts";
import { INT64_MAX, INT64_MIN } from "../../src/text/int64.ts";
import { AUTH, expectError, plantJson, postPlant, uniqueId, useTestApp } from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";

const MERGE_PATCH = "application/merge-patch+json";

describe.each(storeEngines)("PATCH /plants/{id} (updatePlant) ($name)", (engine) => {
  const app = useTestApp(engine);
  const patch = (
    id: bigint | string,
    payload: string,
    headers: Record<string, string> = {},
    type = MERGE_PATCH,
  ) =>
    app().app.inject({
      method: "PATCH",
      url: `/plants/${id}`,
      headers: { ...AUTH, "content-type": type, ...headers },
      payload,
    });
  const stored = async (name: string, tag?: string) => {
    const id = uniqueId();
    expect((await postPlant(app().app, plantJson(id, name, tag))).statusCode).toBe(200);
    return id;
  };

  it("when the name is sent, then 200 with the plant as stored: the new name, the tag kept", async () => {
    const id = await stored("Ivy", "climber");
    const res = await patch(id, '{"name":"English ivy"}');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe(`{"id":${id},"name":"English ivy","tag":"climber"}`);
    expect(await app().db.store.resources.plants.get(id)).toEqual({
      id,
      name: "English ivy",
      tag: "climber",
    });
  });

  it("when the tag is sent, then it replaces the stored tag, or sets one where there was none", async () => {
    const id = await stored("Ivy", "climber");
    expect((await patch(id, '{"tag":"evergreen"}')).body).toBe(
      `{"id":${id},"name":"Ivy","tag":"evergreen"}`,
    );
    const untagged = await stored("Fern");
    expect((await patch(untagged, '{"tag":"shade"}')).json()).toMatchObject({ tag: "shade" });
    expect(await app().db.store.resources.plants.get(untagged)).toEqual({
      id: untagged,
      name: "Fern",
      tag: "shade",
    });
  });

  it("when the tag is null, then the tag is removed, and removing it again changes nothing", async () => {
    const id = await stored("Ivy", "climber");
    for (let i = 0; i < 2; i++) {
      const res = await patch(id, '{"tag":null}');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe(`{"id":${id},"name":"Ivy"}`);
    }
    expect(await app().db.store.resources.plants.get(id)).toEqual({ id, name: "Ivy" });
  });

  it("when no plant is stored under the id, then 404 naming it, and nothing is stored", async () => {
    const id = uniqueId();
    expectError(await patch(id, '{"name":"Ghost"}'), 404, new RegExp(`^no plant with id ${id}$`));
    expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
  });

  it.each([
    ["{}", /^the request body must have at least 1 property$/],
    ['{"colour":"green"}', /^the request body has an unknown property "colour"$/],
    ['{"id":1,"name":"Renamed"}', /^the request body has an unknown property "id"$/],
    ['{"name":null}', /^name must be a string \(got null\)$/],
    ['{"tag":5}', /^tag must be a string or null \(got number\)$/],
    ['{"name":"bad \\u0000"}', /^name contains a NUL character/],
    ['{"tag":"\\ud800"}', /^tag contains an unpaired UTF-16 surrogate/],
    ["[]", /^the request body must be a JSON object/],
    ['{"name":"x"', /^the request body is not valid JSON$/],
    ["", /^a request body is required/],
  ])("when the body is %s, then 400 saying why, and the plant is unchanged", async (body, why) => {
    const id = await stored("Kept", "kept");
    expectError(await patch(id, body), 400, why);
    expect(await app().db.store.resources.plants.get(id)).toEqual({
      id,
      name: "Kept",
      tag: "kept",
    });
  });

  it.each([
    "text/plain",
    "application/x-www-form-urlencoded",
    "application/merge-patch+json; charset=latin1",
  ])("when the body is sent as %s, then 415 naming both accepted types", async (type) => {
    const id = await stored("Kept");
    const res = await patch(id, '{"name":"x"}', {}, type);
    expectError(res, 415);
    if (!type.includes("charset")) {
      expect(res.json().message).toBe(
        `the content type must be application/merge-patch+json or application/json, got "${type}"`,
      );
    }
    expect(await app().db.store.resources.plants.get(id)).toEqual({ id, name: "Kept" });
  });

  it.each([
    MERGE_PATCH,
    "application/json",
    "application/merge-patch+json; charset=utf-8",
    "Application/JSON; charset=UTF-8",
  ])("when the body is sent as %s, then it is read as a merge patch", async (type) => {
    const id = await stored("Before", "t");
    const res = await patch(id, '{"name":"After","tag":null}', {}, type);
    expect(res.statusCode, res.body).toBe(200);
    expect(await app().db.store.resources.plants.get(id)).toEqual({ id, name: "After" });
  });

  it("when the body is over 64 KiB, then 413 and the plant is unchanged", async () => {
    const id = await stored("Kept");
    expectError(await patch(id, JSON.stringify({ name: "x".repeat(70_000) })), 413);
    expect(await app().db.store.resources.plants.get(id)).toEqual({ id, name: "Kept" });
  });

  it.each([INT64_MAX, INT64_MIN, 2n ** 53n + 1n, -(2n ** 53n) - 1n])(
    "when the plant with id %s is changed, then exactly it changes and the answer writes its id exactly",
    async (id) => {
      const neighbour = id === INT64_MAX ? id - 1n : id + 1n;
      await postPlant(app().app, plantJson(id, "before"));
      await postPlant(app().app, plantJson(neighbour, "neighbour"));
      const before = await app().db.store.resources.plants.get(neighbour);
      const res = await patch(id, '{"name":"after"}');
      expect(res.body).toMatch(new RegExp(`^\\{"id":${id},"name":"after"`));
      expect(await app().db.store.resources.plants.get(neighbour)).toEqual(before);
    },
  );

  it.each(["1e2", "0x10", "01", String(INT64_MAX + 1n)])(
    "when the id in the path is %s, then 400 naming the path parameter",
    async (text) => {
      expectError(await patch(text, '{"name":"x"}'), 400, /^path parameter id must be/);
    },
  );

  it("when the token carries scopes without plants:write, then 403 before the body is read; with it, 200", async () => {
    const id = await stored("Scoped");
    const tokenWith = async (scopes: string[]) => {
      const { token } = await issueToken(app().db.store.tokens, {
        name: `patch-${uniqueId()}`,
        scopes,
      });
      return { authorization: `Bearer ${token}` };
    };
    const refused = await patch(id, "not even JSON", await tokenWith(["plants:read"]));
    expectError(refused, 403, /plants:write/);
    expect(refused.headers["www-authenticate"]).toContain('scope="plants:write"');
    const allowed = await patch(id, '{"tag":"ok"}', await tokenWith(["plants:write"]));
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(await app().db.store.resources.plants.get(id)).toEqual({
      id,
      name: "Scoped",
      tag: "ok",
    });
  });

  it("when no credentials come, then 401 before the id or the body is read", async () => {
    const res = await app().app.inject({
      method: "PATCH",
      url: "/plants/abc",
      headers: { "content-type": MERGE_PATCH },
      payload: "{",
    });
    expectError(res, 401);
  });

  it("when plants are changed, then the request metrics count them under the operation", async () => {
    const id = await stored("Counted");
    await patch(id, '{"tag":"x"}');
    await patch(uniqueId(), '{"tag":"x"}');
    // The metrics text is made at most once a second: wait for a fresh one.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const text = (await app().app.inject({ method: "GET", url: "/metrics" })).body;
    for (const status of ["200", "404"]) {
      expect(text).toMatch(
        new RegExp(
          `^plantstore_http_requests_total\\{route="updatePlant",method="PATCH",status="${status}"\\} [1-9]`,
          "m",
        ),
      );
    }
    expect(text).toMatch(
      /^plantstore_store_commit_seconds_count\{write="updatePlant",outcome="updated"\} [1-9]/m,
    );
  });
});
