import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES } from "../../src/app.ts";
import {
  AUTH,
  createTestApp,
  expectError,
  JSON_TYPE,
  plantJson,
  postPlant,
  uniqueId,
  useTestApp,
} from "../helpers/app.ts";
import { documentedPaths } from "../helpers/document.ts";
import { expectExampleAnswer } from "../helpers/examples.ts";
import { storeEngines } from "../helpers/stores.ts";

describe.each(storeEngines)("routing, content types and limits ($name)", (engine) => {
  const app = useTestApp(engine);

  // Fastify's router decodes %XX and would take /pl%61nts for /plants; openapi-backend does not.
  it.each([
    "/",
    "/plant",
    "/plants/1/x",
    "/plants/",
    "/plants//",
    "/PLANTS",
    "/pl%61nts",
    "/heal%74hz",
    "/openapi.jsonx",
    "/docs/",
  ])("when %s is requested, then 404 with the Error body", async (url) => {
    expectError(await app().app.inject({ method: "POST", url, headers: AUTH }), 404);
    expectError(await app().app.inject({ method: "GET", url }), 404);
  });

  it("when an encoded path would name /plants, then nothing is created under it", async () => {
    const id = uniqueId();
    const res = await app().app.inject({
      method: "POST",
      url: "/pl%61nts?x=1",
      headers: { ...AUTH, ...JSON_TYPE },
      payload: plantJson(id, "encoded"),
    });
    expectError(res, 404);
    expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
  });

  // Every path of the document, and every method it does not have there: 405 naming the ones it
  // has, templated paths (/plants/{id}, /docs/{asset}) included.
  const refusedMethods = documentedPaths().flatMap(({ path, methods }) =>
    (["GET", "PUT", "POST", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const)
      .filter((method) => !methods.includes(method))
      .map((method) => ({ method, path, allow: methods.join(", ") })),
  );
  it.each(refusedMethods)(
    "when $method is used on $path, then 405 with Allow: $allow",
    async ({ method, path, allow }) => {
      const res = await app().app.inject({ method, url: path, headers: AUTH });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe(allow);
      if (method !== "HEAD") expectError(res, 405, new RegExp(`; use ${allow}$`));
    },
  );

  it.each([
    ["text/plain", /application\/json/],
    ["application/x-www-form-urlencoded", /application\/json/],
    ["application/xml", /application\/json/],
    ["application/jsonx", /application\/json/],
    ["multipart/form-data; boundary=x", /application\/json/],
    ["application/json; charset=iso-8859-1", /UTF-8/],
  ])("when the content type is %s, then 415 and nothing is stored", async (type, message) => {
    const id = uniqueId();
    expectError(
      await postPlant(app().app, plantJson(id, "x"), { "content-type": type }),
      415,
      message,
    );
    expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
  });

  it("when there is a body but no content type, then 415", async () => {
    const id = uniqueId();
    const res = await app().app.inject({
      method: "POST",
      url: "/plants",
      headers: AUTH,
      payload: Buffer.from(plantJson(id, "x")),
    });
    expectError(res, 415);
    expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
  });

  it.each([
    "application/json",
    "application/json; charset=utf-8",
    "Application/JSON; Charset=UTF-8",
    'application/json;charset="utf-8"',
  ])("when the content type is %s, then it is JSON", async (type) => {
    const id = uniqueId();
    expect(
      (await postPlant(app().app, plantJson(id, "x"), { "content-type": type })).statusCode,
    ).toBe(200);
  });

  it("when there is no body, then 400 asks for one", async () => {
    const res = await app().app.inject({
      method: "POST",
      url: "/plants",
      headers: { ...AUTH, ...JSON_TYPE },
    });
    expectError(res, 400, /request body is required/);
  });

  it("when the body is over the limit, then 413 and nothing is stored", async () => {
    const id = uniqueId();
    const payload = plantJson(id, "x".repeat(BODY_LIMIT_BYTES));
    expectError(await postPlant(app().app, payload), 413, /larger than 65536 bytes/);
    expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
  });

  it.each([
    ["no token", "POST", "/plants", {}, 401],
    ["an unknown path", "POST", "/elsewhere", AUTH, 404],
    // OPTIONS takes @fastify/cors's route, which must answer body errors like every other.
    ["OPTIONS, which the document does not have", "OPTIONS", "/plants", AUTH, 405],
  ] as const)(
    "when an oversized body comes with %s, then that is answered first (%s %s)",
    async (_what, method, url, auth, status) => {
      const res = await app().app.inject({
        method,
        url,
        headers: { ...auth, ...JSON_TYPE },
        payload: plantJson(uniqueId(), "x".repeat(BODY_LIMIT_BYTES)),
      });
      expectError(res, status);
    },
  );

  it.each([
    ["Content-Encoding: gzip", { "content-encoding": "gzip" }, /Content-Encoding: gzip/],
    ["Content-Encoding: br", { "content-encoding": "br" }, /Content-Encoding: br/],
  ])(
    "when the body declares %s, then 415 and nothing is stored",
    async (_what, headers, message) => {
      const id = uniqueId();
      expectError(await postPlant(app().app, plantJson(id, "x"), headers), 415, message);
      expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
    },
  );

  it("when the body declares Content-Encoding: identity, then it is read as is", async () => {
    const id = uniqueId();
    const res = await postPlant(app().app, plantJson(id, "x"), { "content-encoding": "identity" });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ["no body", "", 400],
    ["a body over the limit", "x".repeat(BODY_LIMIT_BYTES + 1), 413],
  ])(
    "when an unparseable Content-Type comes with %s, then the documented order holds (%s)",
    async (_what, payload, status) => {
      const res = await app().app.inject({
        method: "POST",
        url: "/plants",
        headers: { ...AUTH, "content-type": ";;;" },
        payload,
      });
      expectError(res, status);
    },
  );

  it("when the Content-Type cannot even be parsed, then 415 once authenticated, 401 before", async () => {
    const id = uniqueId();
    const headers = { "content-type": "not a type" };
    expectError(await postPlant(app().app, plantJson(id, "x"), headers), 415, /application\/json/);
    const anonymous = await app().app.inject({
      method: "POST",
      url: "/plants",
      headers,
      payload: plantJson(id, "x"),
    });
    expectError(anonymous, 401);
    expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
  });

  it("when the body is exactly at the limit, then it is accepted", async () => {
    const id = uniqueId();
    const skeleton = plantJson(id, "");
    const name = "n".repeat(BODY_LIMIT_BYTES - Buffer.byteLength(skeleton));
    const res = await postPlant(app().app, plantJson(id, name));
    expect(res.statusCode).toBe(200);
    expect((await app().db.store.resources.plants.get(id))?.name).toHaveLength(name.length);
  });

  // A missing table is a fault of ours (not the database being away, which is a 503 below).
  it.runIf(engine.name === "sqlite")(
    "when the store fails, then 500 says nothing internal and the log has the cause under that request id",
    async () => {
      const logLines: Record<string, unknown>[] = [];
      const broken = await createTestApp(engine, logLines);
      const saboteur = new Database(broken.db.url.replace(/^sqlite:/, ""));
      saboteur.exec("DROP TABLE plants");
      saboteur.close();
      const res = await postPlant(broken.app, plantJson(uniqueId(), "x"));
      const body = expectError(res, 500, /^internal error; quote request id [0-9a-f-]{36}$/);
      expect(body.message).not.toMatch(/database|sqlite|connection/i);
      const requestId = body.message.split(" ").at(-1);
      const failure = logLines.find((line) => line["reqId"] === requestId && line["level"] === 50);
      expect(failure?.["err"]).toMatchObject({ message: expect.stringMatching(/\S/) });
      expect(JSON.stringify(logLines)).not.toContain("test-token-0123456789abcdef");
      await broken.close();
    },
  );
});

describe.each(storeEngines)("when the database is away (%s)", (engine) => {
  it("when the store is closed (a pool that cannot reach the database, a stopped SQLite writer), then 503 with Retry-After says nothing internal and the cause is logged", async () => {
    const logLines: Record<string, unknown>[] = [];
    const away = await createTestApp(engine, logLines);
    await away.db.store.close();
    const res = await postPlant(away.app, plantJson(uniqueId(), "x"));
    expectError(res, 503, /^the store is unavailable; retry shortly$/);
    expectExampleAnswer("storeUnavailable", { status: res.statusCode, body: res.json() });
    expect(res.headers["retry-after"]).toBe("2");
    const warning = logLines.find((line) => line["msg"] === "store unavailable");
    expect(warning?.["reason"]).toMatch(engine.name === "sqlite" ? /closed/ : /CONNECTION_ENDED/);
    await away.close();
  });
});

describe("while the app is closing", () => {
  it("when a request arrives after close() began, then 503 with Retry-After and Connection: close, nothing stored", async () => {
    const t = await createTestApp();
    const id = uniqueId();
    const closing = t.app.close();
    const res = await postPlant(t.app, plantJson(id, "late"));
    await closing;
    expectError(res, 503, /shutting down/);
    expectExampleAnswer("shuttingDown", { status: res.statusCode, body: res.json() });
    expect(res.headers["retry-after"]).toBe("1");
    expect(res.headers.connection).toBe("close");
    expect(await (await t.db.reopen()).resources.plants.get(id)).toBeUndefined();
    await t.db.destroy();
  });
});
