// The examples in openapi/plants.yaml cannot drift: each request example is sent, in document
// order, to a real server on an empty store, and the answer must equal the response example of
// the same name. The published document is the YAML with `servers` naming the server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadDocument } from "../../src/openapi/document.ts";
import { assertDocumented } from "../helpers/contract.ts";
import {
  closeServerFixture,
  openServerFixture,
  type ServerFixture,
  startServer,
  useServerSuite,
} from "../helpers/server-process.ts";
import { post } from "../helpers/socket-http.ts";

interface Example {
  value: unknown;
}
interface MediaType {
  example?: unknown;
  examples?: Record<string, Example>;
}
interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { $ref?: string; content?: Record<string, MediaType> }>;
}

const doc = loadDocument() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content?: Record<string, MediaType> }> };
};
const createPlant = doc.paths["/plants"]?.["post"] as Operation;
const requestExamples = Object.entries(
  createPlant.requestBody?.content["application/json"]?.examples ?? {},
);

/** The status and body of the response example named `name`; exactly one must exist. */
function answerNamed(name: string): { status: number; body: unknown } {
  const found = Object.entries(createPlant.responses).flatMap(([status, response]) => {
    const resolved =
      response.$ref === undefined
        ? response
        : doc.components.responses[response.$ref.replace("#/components/responses/", "")];
    const example = resolved?.content?.["application/json"]?.examples?.[name];
    return example === undefined ? [] : [{ status: Number(status), body: example.value }];
  });
  expect(found, `response examples named ${name}`).toHaveLength(1);
  return found[0] as { status: number; body: unknown };
}

describe("the examples in openapi/plants.yaml, sent to a real server", () => {
  let fixture: Partial<ServerFixture> = {};
  beforeAll(async () => {
    fixture = await openServerFixture();
  });
  afterAll(() => closeServerFixture(fixture));

  it("when read, then createPlant has request examples for 200, 400 and 409", () => {
    const statuses = requestExamples.map(([name]) => answerNamed(name).status);
    expect(new Set(statuses)).toEqual(new Set([200, 400, 409]));
  });

  it("when every request example is sent in order, then each answer equals its named example", async () => {
    const url = fixture.server?.url ?? "";
    for (const [name, example] of requestExamples) {
      const expected = answerNamed(name);
      const answer = await post(url, JSON.stringify(example.value));
      expect({ name, status: answer.status, body: JSON.parse(answer.body) }).toEqual({
        name,
        ...expected,
      });
    }
  });

  it.each(["/healthz", "/readyz"])(
    "when %s is asked, then the answer equals its example",
    async (path) => {
      const response = await fetch(`${fixture.server?.url}${path}`);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual(
        doc.components.responses["Healthy"]?.content?.["application/json"]?.example,
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

  it("when PLANTSTORE_PUBLIC_URL is unset, then /openapi.json and /openapi.yaml are the YAML with servers naming the listening address", async () => {
    const server = await startServer({ databasePath: db.path });
    const expected = {
      ...loadDocument(),
      servers: [{ url: server.url, description: "This server" }],
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

  it("when PLANTSTORE_PUBLIC_URL is set, then servers names it and the docs page may call it", async () => {
    const server = await startServer({
      databasePath: db.path,
      env: { PLANTSTORE_PUBLIC_URL: "https://plants.example.com/api/" },
    });
    const json = await fetchChecked(server.url, "/openapi.json");
    expect(JSON.parse(json.body).servers).toEqual([
      { url: "https://plants.example.com/api", description: "This server" },
    ]);
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
