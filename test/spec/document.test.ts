import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { documentPath, loadDocument, parseYaml } from "../../src/openapi/document.ts";
import { REFERENCE_STATUS, requestReferences } from "../../src/openapi/references.ts";

describe("loadDocument", () => {
  it("when keys are not text or values are aliases, then the result is the YAML parser's", () => {
    const text = "a: &x {b: 1}\nc: *x\n~: n\n200: ok\ntrue: t\n__proto__: p\nl: &l [1]\nm: *l\n";
    const parsed = parseYaml(text) as Record<string, unknown>;
    expect(parsed).toStrictEqual(parse(text));
    // An alias is its anchor's object, as the parser gives it.
    expect(parsed["c"]).toBe(parsed["a"]);
    expect(parsed["m"]).toBe(parsed["l"]);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it("when an anchor holds itself, then it is read without recursing for ever", () => {
    const parsed = parseYaml("s: &s\n  self: *s\n") as { s: { self: unknown } };
    expect(parsed.s.self).toBe(parsed.s);
  });

  it("when a key is a collection, then it is refused", () => {
    expect(() => parseYaml("? [a, b]\n: x\n")).toThrow(/a key that is a collection/);
  });

  it("when the YAML is loaded, then it is exactly what the YAML parser makes of the file (the one-byte copy changes nothing)", () => {
    expect(loadDocument()).toStrictEqual(parse(readFileSync(documentPath, "utf8")));
  });
});

// The parts of the seed contract that must never drift: the schemas, auth and POST /plants as
// first specified.
describe("openapi/plants.yaml keeps the seed contract", () => {
  const doc = loadDocument() as unknown as {
    info: { version: string; license: { name: string } };
    security: unknown;
    components: {
      securitySchemes: unknown;
      schemas: Record<string, unknown>;
      responses: Record<string, unknown>;
    };
    paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>;
  };
  const resolve = (response: { $ref?: string } | undefined): unknown =>
    response?.$ref === undefined
      ? response
      : doc.components.responses[response.$ref.replace("#/components/responses/", "")];

  // Which version is the semver gate's (test/spec/spec-version.test.ts).
  it("when read, then its version is MAJOR.MINOR.PATCH, under the MIT license", () => {
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(doc.info.license.name).toBe("MIT");
  });

  it("when read, then one global http bearer scheme covers everything", () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer" },
    });
  });

  it("when read, then StoredPlant is a Plant with its int64 id", () => {
    expect(doc.components.schemas["StoredPlant"]).toMatchObject({
      allOf: [
        { required: ["id"], properties: { id: { type: "integer", format: "int64" } } },
        { $ref: "#/components/schemas/Plant" },
      ],
    });
  });

  it("when read, then Plant, NewPlant and Error have the seed fields", () => {
    expect(doc.components.schemas["Plant"]).toMatchObject({
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, tag: { type: "string" } },
    });
    expect(doc.components.schemas["NewPlant"]).toMatchObject({
      allOf: [
        { $ref: "#/components/schemas/Plant" },
        { required: ["id"], properties: { id: { type: "integer", format: "int64" } } },
      ],
    });
    expect(doc.components.schemas["Error"]).toMatchObject({
      required: ["error", "message"],
      properties: { error: { type: "integer", format: "int32" }, message: { type: "string" } },
    });
  });

  // Operations may be added beside these (docs/editing-the-api.md); these stay.
  it("when read, then the plant operations include create, list, read and delete, with POST /plants answering as the seed does", () => {
    expect(Object.keys(doc.paths["/plants"] ?? {})).toEqual(
      expect.arrayContaining(["get", "post"]),
    );
    expect(Object.keys(doc.paths["/plants/{id}"] ?? {})).toEqual(
      expect.arrayContaining(["delete", "get"]),
    );
    const responses = doc.paths["/plants"]?.["post"]?.responses ?? {};
    // Every status the server can answer is documented, and nothing else.
    expect(Object.keys(responses).sort()).toEqual(
      [
        "200",
        "400",
        "401",
        "403",
        "404",
        "405",
        "408",
        "409",
        "413",
        "415",
        "429",
        "431",
        "500",
        "503",
      ].sort(),
    );
    expect(responses["200"]).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/Plant" } } },
    });
    const common = ["400", "401", "403", "405", "408", "429", "431", "500", "503"];
    const statuses = (path: string, method: string) =>
      Object.keys(doc.paths[path]?.[method]?.responses ?? {}).sort();
    expect(statuses("/plants", "get")).toEqual(["200", ...common].sort());
    expect(statuses("/plants/{id}", "get")).toEqual(["200", "404", ...common].sort());
    expect(statuses("/plants/{id}", "delete")).toEqual(["204", "404", ...common].sort());
    expect(doc.paths["/plants/{id}"]?.["get"]?.responses["200"]).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/StoredPlant" } } },
    });
    expect(doc.paths["/plants/{id}"]?.["delete"]?.responses["204"]).not.toHaveProperty("content");
  });

  it("when read, then every answer of every operation from 400 on is an Error", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === "parameters") continue;
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          expect(resolve(response), `${method} ${path} ${status}`).toMatchObject({
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          });
        }
      }
    }
    const responses = doc.paths["/plants"]?.["post"]?.responses ?? {};
    expect(resolve(responses["429"])).toMatchObject({
      headers: { "Retry-After": expect.anything() },
    });
  });

  it("when an operation's body has a member marked x-references, then the operation documents the refusal of a row that is not stored", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === "parameters") continue;
        if (requestReferences(operation, loadDocument()).length === 0) continue;
        expect(
          Object.keys(operation.responses),
          `${method} ${path} answers ${REFERENCE_STATUS}`,
        ).toContain(String(REFERENCE_STATUS));
      }
    }
  });
});

// The operations an operator's tools call (docs/operating.md, "Running in production").
describe("openapi/plants.yaml documents the operating endpoints", () => {
  const doc = loadDocument() as unknown as {
    paths: Record<string, Record<string, Operation>>;
    components: { responses: Record<string, Response> };
  };
  interface Response {
    $ref?: string;
    content?: Record<string, { schema: unknown }>;
    headers?: Record<string, unknown>;
  }
  interface Operation {
    operationId: string;
    tags: string[];
    security?: unknown;
    responses: Record<string, Response>;
  }
  const resolve = (response: Response): Response =>
    response.$ref === undefined
      ? response
      : (doc.components.responses[response.$ref.replace("#/components/responses/", "")] ?? {});

  it("when read, then the paths include /plants, the operating and the documentation endpoints", () => {
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/docs",
        "/docs/{asset}",
        "/healthz",
        "/metrics",
        "/openapi.json",
        "/openapi.yaml",
        "/plants",
        "/plants/{id}",
        "/readyz",
      ]),
    );
    for (const path of ["/healthz", "/readyz", "/metrics"]) {
      expect(Object.keys(doc.paths[path] ?? {}), path).toEqual(["get"]);
      expect(doc.paths[path]?.["get"]?.tags, path).toEqual(["operations"]);
    }
  });

  it.each([
    ["/healthz", "getHealth", [], ["200", "400", "405", "500", "503"]],
    ["/readyz", "getReadiness", [], ["200", "400", "405", "500", "503"]],
    [
      "/metrics",
      "getMetrics",
      [{ metricsToken: [] }],
      ["200", "400", "401", "405", "429", "500", "503"],
    ],
  ])(
    "when %s is read, then it is %s with security %j, answering %j, every error an Error",
    (path, id, security, statuses) => {
      const operation = doc.paths[path]?.["get"];
      expect(operation?.operationId).toBe(id);
      expect(operation?.security).toEqual(security);
      const responses = operation?.responses ?? {};
      expect(Object.keys(responses).sort()).toEqual(statuses);
      for (const [status, response] of Object.entries(responses)) {
        if (status === "200") continue;
        expect(resolve(response), `${path} ${status}`).toMatchObject({
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        });
      }
      if (responses["503"] !== undefined) {
        expect(resolve(responses["503"]).headers).toHaveProperty("Retry-After");
      }
    },
  );

  it("when /metrics is read, then its 200 is Prometheus text", () => {
    expect(doc.paths["/metrics"]?.["get"]?.responses["200"]?.content).toHaveProperty([
      "text/plain",
    ]);
  });
});

// The published document and its reference page (docs/publishing.md).
describe("openapi/plants.yaml documents its own publication", () => {
  const doc = loadDocument() as unknown as {
    paths: Record<
      string,
      Record<string, { operationId: string; tags: string[]; security: unknown }>
    >;
  };

  it.each([
    ["/openapi.json", "getOpenApiJson"],
    ["/openapi.yaml", "getOpenApiYaml"],
    ["/docs", "getDocs"],
    ["/docs/{asset}", "getDocsAsset"],
  ])(
    "when %s is read, then it is GET %s, tagged documentation, with no credentials",
    (path, id) => {
      expect(Object.keys(doc.paths[path] ?? {})).toEqual(["get"]);
      const operation = doc.paths[path]?.["get"];
      expect(operation?.operationId).toBe(id);
      expect(operation?.tags).toEqual(["documentation"]);
      expect(operation?.security).toEqual([]);
    },
  );
});

// What API portals and client generators need of the document (docs/publishing.md).
describe("openapi/plants.yaml is clean for portals and generators", () => {
  const doc = loadDocument() as unknown as { info: { contact?: unknown } };
  const walk = (
    node: unknown,
    at: string,
    visit: (node: Record<string, unknown>, at: string) => void,
  ) => {
    if (typeof node !== "object" || node === null) return;
    visit(node as Record<string, unknown>, at);
    for (const [key, child] of Object.entries(node)) walk(child, `${at}/${key}`, visit);
  };

  it("when read, then info has a contact", () => {
    expect(doc.info.contact).toMatchObject({ name: expect.any(String) });
  });

  it("when read, then no description or summary holds a control character or an escape that generators turn into one", () => {
    const found: string[] = [];
    walk(doc, "", (node, at) => {
      for (const key of ["description", "summary", "title"]) {
        const text = node[key];
        if (typeof text !== "string") continue;
        // Newlines and tabs are text; anything else below U+0020, DEL, or a written \u escape is not.
        const control = [...text].some((c) => {
          const code = c.charCodeAt(0);
          return (code < 0x20 && c !== "\n" && c !== "\t") || code === 0x7f;
        });
        if (control || /\\u[0-9a-fA-F]{4}/.test(text)) found.push(`${at}/${key}`);
      }
    });
    expect(found).toEqual([]);
  });

  it("when read, then every integer schema has a format, and every int64 is marked x-exact-integer", () => {
    const problems: string[] = [];
    walk(doc, "", (node, at) => {
      if (node["type"] !== "integer") return;
      if (typeof node["format"] !== "string") problems.push(`${at}: integer without format`);
      if (node["format"] === "int64" && node["x-exact-integer"] !== true) {
        problems.push(`${at}: int64 without x-exact-integer: true`);
      }
    });
    expect(problems).toEqual([]);
  });
});
