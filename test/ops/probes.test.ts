// GET /healthz and GET /readyz through app.inject, on every store engine, and the headers every
// answer carries.
import { describe, expect, it } from "vitest";
import {
  AUTH,
  createTestApp,
  expectError,
  plantJson,
  postPlant,
  uniqueId,
  useTestApp,
} from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(storeEngines)("probes ($name)", (engine) => {
  const app = useTestApp(engine);

  it.each(["/healthz", "/readyz"])(
    "when %s is asked without credentials, then 200 with {status: ok}",
    async (url) => {
      const res = await app().app.inject({ method: "GET", url });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(res.json()).toStrictEqual({ status: "ok" });
    },
  );

  it.each(["/healthz", "/readyz", "/metrics"])(
    "when %s is asked with another method, then 405 with Allow: GET, HEAD",
    async (url) => {
      const res = await app().app.inject({ method: "POST", url, headers: AUTH });
      expectError(res, 405, /use GET, HEAD$/);
      expect(res.headers.allow).toBe("GET, HEAD");
    },
  );

  it("when a probe carries a query parameter, then 400 as for any operation", async () => {
    expectError(await app().app.inject({ method: "GET", url: "/healthz?verbose=1" }), 400);
  });

  it("when the store is closed, then /readyz is 503 with Retry-After and /healthz stays 200", async () => {
    const t = await createTestApp(engine);
    try {
      await t.db.store.close();
      const ready = await t.app.inject({ method: "GET", url: "/readyz" });
      expectError(ready, 503, /store is unavailable/);
      expect(ready.headers["retry-after"]).toBe("2");
      expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe("probes while shutting down", () => {
  it("when close() has begun, then /readyz answers 503 with Retry-After at once", async () => {
    const t = await createTestApp();
    const closing = t.app.close();
    const res = await t.app.inject({ method: "GET", url: "/readyz" });
    await closing;
    expectError(res, 503, /shutting down/);
    expect(res.headers["retry-after"]).toBe("1");
    await t.db.destroy();
  });
});

describe("headers on every answer", () => {
  const app = useTestApp();

  it.each([
    ["a create", { method: "POST", url: "/plants" }, 200],
    ["a probe", { method: "GET", url: "/healthz" }, 200],
    ["an unknown path", { method: "GET", url: "/nowhere" }, 404],
    [
      "a refused token",
      { method: "POST", url: "/plants", auth: "Bearer wrong-token-0123456789" },
      401,
    ],
  ] as const)(
    "when %s is answered, then nosniff, no-store, a request id and no banner",
    async (_what, request, status) => {
      const res =
        request.url === "/plants" && !("auth" in request)
          ? await postPlant(app().app, plantJson(uniqueId(), "headers"))
          : await app().app.inject({
              method: request.method,
              url: request.url,
              headers: "auth" in request ? { authorization: request.auth } : {},
            });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.headers["x-request-id"]).toMatch(UUID);
      expect(res.headers).not.toHaveProperty("server");
      expect(res.headers).not.toHaveProperty("x-powered-by");
    },
  );
});

describe("request ids", () => {
  it("when a sane X-Request-Id comes in, then it is echoed and names the request's log line", async () => {
    const logLines: Record<string, unknown>[] = [];
    const t = await createTestApp(undefined, logLines);
    try {
      const id = `lb-${uniqueId()}:trace/1`;
      const res = await postPlant(t.app, plantJson(uniqueId(), "traced"), { "x-request-id": id });
      expect(res.statusCode).toBe(200);
      expect(res.headers["x-request-id"]).toBe(id);
      const line = logLines.find((entry) => entry["msg"] === "request completed");
      expect(line).toMatchObject({ reqId: id, method: "POST", url: "/plants", status: 200 });
      expect(JSON.stringify(logLines)).not.toContain("test-token-0123456789abcdef");
      expect(JSON.stringify(logLines)).not.toContain("traced");
    } finally {
      await t.close();
    }
  });

  it.each([
    ["has a space", "a b"],
    ["has a quote", 'a"b'],
    ["is too long", "x".repeat(129)],
    ["is empty", ""],
    ["has a newline escape", "a\\nb c"],
  ])("when the incoming X-Request-Id %s, then a fresh UUID replaces it", async (_why, given) => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({
        method: "GET",
        url: "/healthz",
        headers: { "x-request-id": given },
      });
      expect(res.headers["x-request-id"]).toMatch(UUID);
    } finally {
      await t.close();
    }
  });
});
