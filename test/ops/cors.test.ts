// CORS through app.inject: preflights from allowed and other origins, the headers on actual
// requests, and OPTIONS that is not a preflight.
import { describe, expect, it } from "vitest";
import {
  documentMethods,
  documentResponseHeaders,
  loadDocument,
} from "../../src/openapi/document.ts";
import { AUTH, expectError, plantJson, postPlant, uniqueId, useTestApp } from "../helpers/app.ts";
import { documentedPaths } from "../helpers/document.ts";

const DOCUMENT = loadDocument();

const ALLOWED = "https://app.example.com";
const preflight = (origin: string) => ({
  method: "OPTIONS" as const,
  url: "/plants",
  headers: {
    origin,
    "access-control-request-method": "POST",
    "access-control-request-headers": "authorization,content-type",
  },
});

describe("CORS for an allowed origin", () => {
  const app = useTestApp(undefined, { ops: { corsOrigins: [ALLOWED, "http://localhost:3000"] } });

  it("when a browser preflights POST /plants with Authorization and Content-Type, then 204 allows them and every method of the document", async () => {
    const res = await app().app.inject(preflight(ALLOWED));
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect(res.headers["access-control-allow-origin"]).toBe(ALLOWED);
    const methods = String(res.headers["access-control-allow-methods"]).split(/, */);
    expect(methods).toEqual(documentMethods(DOCUMENT));
    expect(methods).toContain("POST");
    const allowed = String(res.headers["access-control-allow-headers"]).toLowerCase().split(/, */);
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type"]));
    expect(Number(res.headers["access-control-max-age"])).toBeGreaterThan(0);
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it("when the allowed origin then creates a plant, then the answer carries its CORS headers", async () => {
    const id = uniqueId();
    const res = await postPlant(app().app, plantJson(id, "from a browser"), { origin: ALLOWED });
    expect(res.statusCode).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe(ALLOWED);
    // Every header a documented answer carries is readable by the page (Link for paging, …).
    const exposed = String(res.headers["access-control-expose-headers"]).split(/, */);
    expect(exposed).toEqual(
      expect.arrayContaining([...documentResponseHeaders(DOCUMENT), "Retry-After", "X-Request-Id"]),
    );
    expect(res.headers).not.toHaveProperty("access-control-allow-credentials");
    expect(await app().db.store.resources.plants.get(id)).toEqual({
      id,
      name: "from a browser",
    });
  });

  it("when another origin preflights, then 403 with the Error body and no CORS headers", async () => {
    const res = await app().app.inject(preflight("https://evil.example"));
    expectError(res, 403, /origin https:\/\/evil\.example may not call this server/);
    expect(Object.keys(res.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });

  it("when another origin sends a request anyway, then it is answered without CORS headers", async () => {
    const res = await postPlant(app().app, plantJson(uniqueId(), "x"), {
      origin: "https://evil.example",
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers).not.toHaveProperty("access-control-allow-origin");
  });

  it.each([
    ["no Origin", {}],
    ["an allowed Origin but no Access-Control-Request-Method", { origin: ALLOWED }],
  ])(
    "when OPTIONS /plants comes with %s, then it is not a preflight: 405 with the path's Allow",
    async (_what, headers) => {
      const res = await app().app.inject({
        method: "OPTIONS",
        url: "/plants",
        headers: { ...AUTH, ...headers },
      });
      const allow = documentedPaths()
        .find((p) => p.template === "/plants")
        ?.methods.join(", ");
      expectError(res, 405, new RegExp(`use ${allow}$`));
      expect(res.headers.allow).toBe(allow);
    },
  );
});

// Not a CORS request: no Access-Control-* header, and, where CORS is enabled, Vary: Origin,
// since the same request from a page would be answered with them (caches must not serve one
// for the other). Where it is not, no answer depends on Origin.
const NO_ORIGIN = [
  { method: "GET" as const, url: "/plants?limit=1", headers: AUTH },
  { method: "GET" as const, url: "/no/such/path", headers: AUTH },
  { method: "OPTIONS" as const, url: "/plants", headers: AUTH },
  { method: "POST" as const, url: "/plants", headers: {} },
];

describe.each([
  ["enabled for some origins", [ALLOWED], "Origin"],
  ["not enabled", [], undefined],
])("CORS %s, a request without Origin", (_what, corsOrigins, vary) => {
  const app = useTestApp(undefined, { ops: { corsOrigins } });

  it.each(NO_ORIGIN)(
    `when $method $url comes without Origin, then no CORS headers and Vary: ${vary}`,
    async (request) => {
      const res = await app().app.inject(request);
      expect(res.headers.vary).toBe(vary);
      expect(Object.keys(res.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
    },
  );
});

describe("CORS by default", () => {
  const app = useTestApp();

  it("when any origin preflights, then 403 says cross-origin requests are not enabled", async () => {
    const res = await app().app.inject(preflight(ALLOWED));
    expectError(res, 403, /not enabled on this server \(PLANTSTORE_CORS_ORIGINS\)/);
    expect(res.headers).not.toHaveProperty("access-control-allow-origin");
  });
});

describe("CORS for any origin (*)", () => {
  const app = useTestApp(undefined, { ops: { corsOrigins: "*" } });

  it("when any origin preflights, then 204 with Access-Control-Allow-Origin: *", async () => {
    const res = await app().app.inject(preflight("https://anywhere.example"));
    expect(res.statusCode).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
  });
});
