// The examples in openapi/plants.yaml cannot drift: every operation's request examples are
// sent, operation by operation in document order and each in the order written, to a real
// server on an empty store, and the answer must be the response example of the same name (its
// status and body), or the bodiless answer that lists the name in `x-example-requests`.
//
// A request example is named across the operation: its body example and the examples of its
// parameters that share the name make up one request. A parameter shared by several operations
// (/plants/{id}) lends each of them only the names that operation answers. Generated values
// (ids, secrets, times) are matched as test/helpers/examples.ts says (`x-generated`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "../../src/config/config.ts";
import { loadDocument } from "../../src/openapi/document.ts";
import { AUTH, JSON_TYPE } from "../helpers/app.ts";
import { assertDocumented } from "../helpers/contract.ts";
import { type DocumentedOperation, documentedOperations } from "../helpers/document.ts";
import {
  answersNamed,
  Bindings,
  bodyOf,
  declaredNames,
  everyNamedAnswer,
  everyRequestExample,
  namesComparedInTests,
  resolveResponse,
} from "../helpers/examples.ts";
import {
  closeServerFixture,
  openServerFixture,
  type ServerFixture,
  startServer,
  useServerSuite,
} from "../helpers/server-process.ts";
import { post } from "../helpers/socket-http.ts";

const operations = documentedOperations();
const examples = everyRequestExample();

describe("the examples in openapi/plants.yaml, sent to a real server", () => {
  let fixture: Partial<ServerFixture> = {};
  beforeAll(async () => {
    // The delivery log must stand still while its examples are read: this server records the
    // webhooks it owes and sends none.
    fixture = await openServerFixture({ PLANTSTORE_WEBHOOK_SEND: "false" });
  });
  afterAll(() => closeServerFixture(fixture));

  it("when read, then every operation that takes parameters or a body has request examples it answers", () => {
    const takesInput = (operation: DocumentedOperation) =>
      operation.parameters.length > 0 || "requestBody" in operation.operation;
    const without = operations
      .filter((operation) => takesInput(operation))
      .filter(
        (operation) =>
          !examples.some((example) => example.operation.operationId === operation.operationId),
      )
      .map((operation) => operation.operationId);
    expect(without, "operations without a request example").toEqual([]);
  });

  it("when read, then every example name of a parameter or a body is some operation's request", () => {
    const orphans = operations.flatMap((operation) =>
      declaredNames(operation)
        .filter((name) =>
          operations.every(
            (other) =>
              !declaredNames(other).includes(name) || answersNamed(other, name).length === 0,
          ),
        )
        .map((name) => `${operation.operationId} ${name}`),
    );
    expect(orphans, "examples no operation answers").toEqual([]);
  });

  it("when read, then every named response example is the answer to a request example, or compared in a test that brings its server state about", () => {
    const made = new Set(examples.map((e) => `${e.operation.operationId} ${e.name}`));
    const compared = namesComparedInTests();
    const unproduced = everyNamedAnswer()
      .filter(({ operationId, name }) => !made.has(`${operationId} ${name}`) && !compared.has(name))
      .map(({ operationId, answer, name }) => `${operationId} ${answer.status} ${name}`);
    expect(unproduced, "response examples no test produces").toEqual([]);
  });

  it("when every request example is sent in order, then each answer equals its named example", async () => {
    const url = fixture.server?.url ?? "";
    const bindings = new Bindings();
    for (const example of examples) {
      const { operation, name, answer, headers, credentials } = example;
      for (const setup of example.setup) {
        const made = await fetch(`${url}${bindings.apply(setup.target)}`, {
          method: setup.method,
          headers: { ...AUTH, ...(setup.body === undefined ? {} : JSON_TYPE) },
          ...(setup.body === undefined ? {} : { body: bindings.apply(setup.body) }),
        });
        expect(
          made.status,
          `${operation.operationId} ${name}: x-setup ${setup.target}`,
        ).toBeLessThan(300);
      }
      const target = bindings.apply(example.target);
      const body = example.body === undefined ? undefined : bindings.apply(example.body);
      const response = await fetch(`${url}${target}`, {
        method: operation.method,
        headers: {
          ...(credentials ? AUTH : {}),
          ...headers,
          ...(body === undefined ? {} : { "content-type": bodyOf(operation).media ?? "" }),
        },
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      const what = `${operation.operationId} ${name}: ${operation.method} ${target}`;
      expect(response.status, `${what}: ${text.slice(0, 200)}`).toBe(answer.status);
      if (answer.media === undefined) {
        expect(text, what).toBe("");
      } else if (answer.media === "application/json") {
        const actual = JSON.parse(text) as unknown;
        expect(actual, what).toEqual(bindings.expected(answer, actual));
      } else {
        // Whole files (a style sheet): the example is a sample of the kind, not the bytes.
        expect(response.headers.get("content-type") ?? "", what).toMatch(
          new RegExp(`^${answer.media}`),
        );
      }
    }
  });

  it.each(["/healthz", "/readyz"])(
    "when %s is asked, then the answer equals its example",
    async (path) => {
      const response = await fetch(`${fixture.server?.url}${path}`);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual(
        resolveResponse({ $ref: "#/components/responses/Healthy" }).content?.["application/json"]
          ?.example,
      );
    },
  );
});

describe("the published document", () => {
  const db = useServerSuite();

  const fetchChecked = async (url: string, path: string) => {
    const response = await fetch(`${url}${path}`);
    const body = await response.text();
    const headers = Object.fromEntries(response.headers);
    assertDocumented({ method: "GET", url: path, status: response.status, headers, body });
    return { status: response.status, headers, body };
  };

  it("when PLANTSTORE_PUBLIC_URL is unset, then /openapi.json and /openapi.yaml are the YAML with servers naming the listening address, and the limits in force in its descriptions", async () => {
    const env = { PLANTSTORE_HEADERS_TIMEOUT_MS: "2500" };
    const server = await startServer({ databasePath: db.path, env });
    // No PLANTSTORE_METRICS_TOKEN here: GET /metrics is published as open, as it is served.
    const values = loadConfig(env).ops.published;
    expect(values["PLANTSTORE_HEADERS_TIMEOUT_MS"]).toBe("2500 ms");
    const filled = JSON.stringify(loadDocument()).replace(
      /\{\{(\w+)\}\}/g,
      (_, name: string) => values[name] ?? `no value for ${name}`,
    );
    const source = JSON.parse(filled) as {
      paths: Record<string, Record<string, { security?: unknown; responses: object }>>;
    };
    const { "401": _unauthorized, ...metricsAnswers } = (source.paths["/metrics"]?.["get"]
      ?.responses ?? {}) as Record<string, unknown>;
    const expected = {
      ...source,
      servers: [{ url: server.url, description: "This server" }],
      // The changelog's relative link, resolved against that address.
      externalDocs: { ...loadDocument().externalDocs, url: `${server.url}/changelog.md` },
      paths: {
        ...source.paths,
        "/metrics": {
          get: {
            ...source.paths["/metrics"]?.["get"],
            security: [],
            // No caller is counted, so no RateLimit fields are announced.
            responses: Object.fromEntries(
              Object.entries(metricsAnswers).map(([status, answer]) => {
                if (status !== "200" && status !== "400") return [status, answer];
                const { headers: _headers, ...rest } = answer as Record<string, unknown>;
                return [status, rest];
              }),
            ),
          },
        },
      },
    };
    const json = await fetchChecked(server.url, "/openapi.json");
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body)).toEqual(expected);
    const yaml = await fetchChecked(server.url, "/openapi.yaml");
    expect(yaml.headers["content-type"]).toBe("application/yaml; charset=utf-8");
    expect(parse(yaml.body)).toEqual(expected);
    // No credentials needed, and nothing else asked for them.
    expect(json.headers["www-authenticate"]).toBeUndefined();
    await server.stop();
  });

  it("when a copy's ETag comes back in If-None-Match, then 304 without a body; any other tag gets the document", async () => {
    const server = await startServer({ databasePath: db.path });
    for (const path of ["/openapi.json", "/openapi.yaml"]) {
      const first = await fetchChecked(server.url, path);
      const tag = first.headers["etag"];
      expect(tag, path).toMatch(/^"sha256-[A-Za-z0-9_-]{22}"$/);
      for (const held of [tag, `W/${tag}`, `"other", ${tag}`, "*"]) {
        const again = await fetch(`${server.url}${path}`, {
          headers: { "if-none-match": held ?? "" },
        });
        expect(again.status, `${path} ${held}`).toBe(304);
        expect(again.headers.get("etag")).toBe(tag);
        expect(await again.text()).toBe("");
      }
      const stale = await fetch(`${server.url}${path}`, { headers: { "if-none-match": '"old"' } });
      expect(stale.status).toBe(200);
      expect(await stale.text()).toBe(first.body);
    }
    await server.stop();
  });

  it("when PLANTSTORE_METRICS_TOKEN is set, then GET /metrics is published needing it, with its 401, and served so", async () => {
    const server = await startServer({
      databasePath: db.path,
      env: { PLANTSTORE_METRICS_TOKEN: "metrics-token-0123456789abcdef" },
    });
    const json = JSON.parse((await fetchChecked(server.url, "/openapi.json")).body);
    expect(json.paths["/metrics"].get.security).toEqual([{ metricsToken: [] }]);
    expect(Object.keys(json.paths["/metrics"].get.responses)).toContain("401");
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    await server.stop();
  });

  it("when PLANTSTORE_METRICS_TOKEN is unset, then GET /metrics is published open and answers without credentials", async () => {
    const server = await startServer({ databasePath: db.path });
    const yaml = await fetchChecked(server.url, "/openapi.yaml");
    const metrics = parse(yaml.body).paths["/metrics"].get;
    expect(metrics.security).toEqual([]);
    expect(Object.keys(metrics.responses)).not.toContain("401");
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
    await server.stop();
  });

  it("when PLANTSTORE_PUBLIC_URL is set, then servers names it, the changelog link is under it, and the docs page may call it", async () => {
    const server = await startServer({
      databasePath: db.path,
      env: { PLANTSTORE_PUBLIC_URL: "https://plants.example.com/api/" },
    });
    const json = await fetchChecked(server.url, "/openapi.json");
    const published = JSON.parse(json.body);
    expect(published.servers).toEqual([
      { url: "https://plants.example.com/api", description: "This server" },
    ]);
    expect(published.externalDocs.url).toBe("https://plants.example.com/api/changelog.md");
    const page = await fetchChecked(server.url, "/docs");
    expect(page.headers["content-security-policy"]).toContain(
      "connect-src 'self' https://plants.example.com;",
    );
    await server.stop();
  });

  it("when /docs and its assets are fetched, then they come from this server under a CSP, and only allow-listed names", async () => {
    const server = await startServer({ databasePath: db.path });
    const page = await fetchChecked(server.url, "/docs");
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toMatch(
      /^default-src 'self'; script-src 'self';/,
    );
    expect(page.body).not.toMatch(/https?:\/\//);
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual(["docs/swagger-ui.css", "docs/swagger-ui-bundle.js", "docs/init.js"]);
    for (const source of sources) {
      const asset = await fetchChecked(server.url, `/${source}`);
      expect(asset.status, source).toBe(200);
    }
    for (const name of ["index.html", "package.json", "..%2Fpackage.json", "swagger-ui.js.map"]) {
      expect((await fetchChecked(server.url, `/docs/${name}`)).status, name).toBe(404);
    }
    // The page and the document need no token; creating a plant still does.
    expect((await post(server.url, "{}", { authorization: "" })).status).toBe(401);
    await server.stop();
  });
});
