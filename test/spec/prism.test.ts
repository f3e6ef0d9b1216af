// A third-party check of the contract: Stoplight Prism, as a proxy in front of a real server,
// validates every request and answer of a traffic set against openapi/plants.yaml. The set is
// read from the document: every operation's request examples (test/helpers/examples.ts), then
// for each operation the answers any operation can be brought to give (an unknown query
// parameter, rejected credentials, a token without its scopes, a body over the limit, a JWT
// whose keys cannot be fetched, and, once the rejected credentials have used up the address's
// allowance, 429). It must cover every documented answer except those listed in
// NOT_THROUGH_PRISM with the reason, and send every parameter; Prism must report no violation.
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../src/openapi/document.ts";
import { TOKEN } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { type DocumentedOperation, documentedOperations } from "../helpers/document.ts";
import { Bindings, bodyOf, type ExampleAnswer, everyRequestExample } from "../helpers/examples.ts";
import { AUDIENCE, ISSUER, signingKey, signJwt } from "../helpers/jwt.ts";
import { type PrismProcess, startPrism } from "../helpers/prism.ts";
import { markRan } from "../helpers/ran-marker.ts";
import { type ServerProcess, startServer, useServerSuite } from "../helpers/server-process.ts";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const WRONG_TOKEN = "wrong-token-0123456789abcdef";

/** Documented answers this traffic cannot produce through a proxy, and why. */
const NOT_THROUGH_PRISM: Readonly<Record<string, string>> = {
  405: "Prism answers a method the document lacks itself, without forwarding",
  500: "needs a fault in the server",
  503: "needs a server that is shutting down, overloaded or without its database (a JWT whose keys cannot be fetched covers the operations that take one)",
  408: "a request that arrives too slowly is cut off by the proxy, not forwarded slowly",
  431: "a request with 16 KiB of headers is refused by the proxy's own HTTP parser",
  415: "Prism refuses an undocumented content type as a request violation",
};
/**
 * Operations whose every valid body is far under the limit: Prism forwards bodies
 * re-serialised, so only an invalid one could reach the 413, and Prism refuses those itself.
 */
const boundedBodies = new Set<string>();
/** The shared 404 of paths the document does not describe: Prism refuses those itself. */
const NOT_FOUND = "#/components/responses/NotFound";

interface Traffic {
  /** The operation, or "x-setup" for a request an example needs sent first (any 2xx). */
  operation: string;
  status: number;
  /** For an example's request: the answer, whose generated values later requests use. */
  answer?: ExampleAnswer;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const scopesOf = ({ operation }: DocumentedOperation): string[] =>
  (operation["x-required-scopes"] as string[] | undefined) ?? [];
/** Whether the operation takes the API's bearer tokens (managed tokens, JWTs). */
const takesBearer = ({ operation }: DocumentedOperation): boolean =>
  (operation.security ?? DOCUMENT_SECURITY).some(
    (requirement) => "bearerAuth" in (requirement as object),
  );
const DOCUMENT_SECURITY = (loadDocument() as unknown as { security: unknown[] }).security;
const needsCredentials = ({ operation }: DocumentedOperation): boolean =>
  (operation.security ?? DOCUMENT_SECURITY).length > 0;

describe("Stoplight Prism in front of a real server", () => {
  const db = useServerSuite();
  let server: ServerProcess;
  let prism: PrismProcess | undefined;
  let traffic: Traffic[] = [];

  beforeAll(async () => {
    const closedPort = await freePort();
    traffic = documentTraffic({
      scopedToken: await scopedTokens(db.path),
      // Nothing listens where its keys are: the JWT gets 503 (keys unavailable).
      jwt: await signJwt(await signingKey("ES256", "k1")),
    });
    // Every rejected credential sent, and not one more, before the 429s.
    const rejected = traffic.filter((t) => t.status === 401 && t.headers?.["authorization"]);
    server = await startServer({
      databasePath: db.path,
      env: {
        // Nothing is sent to the examples' endpoints (their addresses are public).
        PLANTSTORE_WEBHOOK_SEND: "false",
        PLANTSTORE_METRICS_TOKEN: METRICS_TOKEN,
        PLANTSTORE_AUTH_FAILURE_LIMIT: String(rejected.length),
        PLANTSTORE_JWT_ISSUER: ISSUER,
        PLANTSTORE_JWT_AUDIENCE: AUDIENCE,
        PLANTSTORE_JWT_JWKS_URL: `http://127.0.0.1:${closedPort}/jwks.json`,
      },
    });

    prism = await startPrism([
      "proxy",
      "openapi/plants.yaml",
      server.url,
      "--errors",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
    ]);
  }, 60_000);

  afterAll(async () => {
    await prism?.stop();
    await server?.stop();
  });

  it("when the document's traffic goes through it, then Prism reports no violation, and every documented answer and every parameter is covered", async () => {
    const bindings = new Bindings();
    for (const request of traffic) {
      const path = bindings.apply(request.path);
      const response = await fetch(`${prism?.url}${path}`, {
        method: request.method,
        headers: request.headers ?? {},
        ...(request.body === undefined ? {} : { body: bindings.apply(request.body) }),
        signal: AbortSignal.timeout(15_000),
      });
      const body = await response.text();
      const what = `${request.method} ${path} (${request.operation} ${request.status})`;
      expect(response.headers.get("sl-violations"), `${what}: ${body.slice(0, 300)}`).toBeNull();
      expect(response.headers.get("content-type") ?? "", what).not.toContain("problem+json");
      if (request.operation === "x-setup") expect(response.status, what).toBeLessThan(300);
      else expect(response.status, `${what}: ${body.slice(0, 300)}`).toBe(request.status);
      if (request.answer?.media === "application/json") {
        bindings.expected(request.answer, JSON.parse(body));
      }
    }
    expect(prism?.output()).not.toMatch(/Violation|✖/);

    // Every documented answer is in the traffic, or listed with the reason it cannot be.
    const covered = new Set(traffic.map((t) => `${t.operation} ${t.status}`));
    const missing = documentedOperations().flatMap(({ operationId, operation }) =>
      Object.entries(operation.responses)
        .filter(
          ([status, response]) =>
            !covered.has(`${operationId} ${status}`) &&
            !(status in NOT_THROUGH_PRISM) &&
            !(status === "413" && boundedBodies.has(operationId)) &&
            (response as { $ref?: string }).$ref !== NOT_FOUND,
        )
        .map(([status]) => `${operationId} ${status}`),
    );
    expect(missing, "documented answers without traffic").toEqual([]);
    // And every query and header parameter is sent: one with no named example would not be.
    const unsent = documentedOperations().flatMap(({ operationId, parameters }) =>
      parameters
        .filter((parameter) => parameter.in === "query" || parameter.in === "header")
        .filter(
          (parameter) =>
            !traffic.some((t) => {
              if (t.operation !== operationId) return false;
              if (parameter.in === "header") {
                return Object.keys(t.headers ?? {}).some(
                  (name) => name.toLowerCase() === parameter.name?.toLowerCase(),
                );
              }
              return new URL(t.path, "http://x").searchParams.has(parameter.name ?? "");
            }),
        )
        .map((parameter) => `${operationId} ${parameter.in} ${parameter.name}`),
    );
    expect(unsent, "parameters no traffic sends (give each a named example)").toEqual([]);
    markRan();
  });
});

/** A managed token for each operation's 403: the document's other scopes, where it has any. */
async function scopedTokens(databasePath: string): Promise<Map<string, string>> {
  const every = [...new Set(documentedOperations().flatMap(scopesOf))].sort();
  const tokens = new Map<string, string>();
  for (const operation of documentedOperations()) {
    const others = every.filter((scope) => !scopesOf(operation).includes(scope));
    if (scopesOf(operation).length === 0 || others.length === 0) continue;
    const key = others.join(" ");
    if (tokens.has(key)) continue;
    const created = await runCli(`sqlite:${databasePath}`, [
      "tokens",
      "create",
      "--name",
      `without-${operation.operationId}`,
      "--scopes",
      key,
    ]);
    expect(created.code, created.stderr).toBe(0);
    tokens.set(key, created.stdout.trim());
  }
  return tokens;
}

/** The traffic the document makes: its examples, then each operation's generic answers. */
function documentTraffic(given: { scopedToken: Map<string, string>; jwt: string }): Traffic[] {
  // The token each security scheme of the document takes.
  const tokens: Record<string, string> = { bearerAuth: TOKEN, metricsToken: METRICS_TOKEN };
  const credentialsFor = ({ operation }: DocumentedOperation) => {
    const [requirement] = (operation.security ?? DOCUMENT_SECURITY) as object[];
    const scheme = Object.keys(requirement ?? {})[0];
    return scheme === undefined ? {} : bearer(tokens[scheme] ?? TOKEN);
  };
  // Prism refuses a request the document does not allow before the server sees it.
  const allowed = everyRequestExample().filter((example) => !example.outsideTheDocument);
  const examples: Traffic[] = allowed.flatMap((example) => [
    ...example.setup.map(
      (setup): Traffic => ({
        operation: "x-setup",
        status: 200,
        method: setup.method,
        path: setup.target,
        headers: {
          ...bearer(TOKEN),
          ...(setup.body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(setup.body === undefined ? {} : { body: setup.body }),
      }),
    ),
    {
      operation: example.operation.operationId,
      status: example.answer.status,
      answer: example.answer,
      method: example.operation.method,
      path: example.target,
      headers: {
        ...(example.credentials ? credentialsFor(example.operation) : {}),
        ...example.headers,
        ...(example.body === undefined
          ? {}
          : { "content-type": bodyOf(example.operation).media ?? "" }),
      },
      ...(example.body === undefined ? {} : { body: example.body }),
    },
  ]);
  const generic: Traffic[] = [];
  // The rejected credentials go after every accepted one: once they reach the address's
  // allowance, even a valid token from it gets 429.
  const rejected: Traffic[] = [];
  const limited: Traffic[] = [];
  for (const operation of documentedOperations()) {
    const { operationId, method, path } = operation;
    const documents = (status: number) => String(status) in operation.operation.responses;
    // Prism checks a body before the server sees the request: each carries a valid one (the
    // operation's first body example).
    const media = bodyOf(operation).media;
    const example = Object.values(bodyOf(operation).examples)[0]?.value;
    const send = (
      status: number,
      headers: Record<string, string>,
      body = example === undefined ? undefined : JSON.stringify(example),
    ): Traffic => ({
      operation: operationId,
      status,
      method,
      path,
      headers: {
        ...headers,
        ...(media === undefined || body === undefined ? {} : { "content-type": media }),
      },
      ...(body === undefined ? {} : { body }),
    });
    const own = credentialsFor(operation);
    // Where no example gets a 2xx (an operation that takes no input), its plain request does.
    const success = Object.keys(operation.operation.responses).find((status) => /^2/.test(status));
    const examplesSucceed = allowed.some(
      (e) => e.operation.operationId === operationId && e.answer.status < 300,
    );
    if (!examplesSucceed && success !== undefined) generic.push(send(Number(success), own));
    if (documents(400)) generic.push({ ...send(400, own), path: `${path}?debug=1` });
    if (needsCredentials(operation) && documents(401))
      rejected.push(send(401, bearer(WRONG_TOKEN)));
    const others = [...given.scopedToken.entries()].find(
      ([scopes]) => !scopesOf(operation).some((scope) => scopes.split(" ").includes(scope)),
    );
    if (others !== undefined && documents(403)) generic.push(send(403, bearer(others[1])));
    // Over the limit and still valid for Prism (which forwards the body re-serialised): the
    // example with a member added, or, where the schema refuses unknown members, with a string
    // member made long that the schema leaves unbounded.
    if (typeof example === "object" && example !== null && documents(413)) {
      const schema = bodySchema(operation);
      const unbounded = Object.entries(example).find(([name, value]) => {
        const property = schema.properties?.[name] ?? {};
        return typeof value === "string" && property.maxLength === undefined && !property.pattern;
      })?.[0];
      const member = schema.additionalProperties === false ? unbounded : "padding";
      if (member === undefined) boundedBodies.add(operationId);
      else
        generic.push(send(413, own, JSON.stringify({ ...example, [member]: "a".repeat(70_000) })));
    }
    if (takesBearer(operation) && documents(503)) generic.push(send(503, bearer(given.jwt)));
    if (needsCredentials(operation) && documents(429)) limited.push(send(429, own));
  }
  // Last: the rejected credentials above used up the address's allowance, so every operation
  // that needs credentials now answers 429, whatever it carries.
  return [...examples, ...generic, ...rejected, ...limited];
}

interface BodySchema {
  $ref?: string;
  allOf?: BodySchema[];
  additionalProperties?: unknown;
  properties?: Record<string, { maxLength?: number; pattern?: string }>;
}
const SCHEMAS = (
  loadDocument() as unknown as { components: { schemas: Record<string, BodySchema> } }
).components.schemas;
/** The operation's JSON body schema, $refs followed and allOf's properties joined. */
function bodySchema(operation: DocumentedOperation): BodySchema {
  const media = bodyOf(operation).media;
  const raw = (
    operation.operation as { requestBody?: { content: Record<string, { schema?: BodySchema }> } }
  ).requestBody?.content[media ?? ""]?.schema;
  const flat = (schema: BodySchema): BodySchema => {
    const resolved =
      schema.$ref === undefined ? schema : (SCHEMAS[schema.$ref.split("/").at(-1) ?? ""] ?? {});
    if (resolved.allOf === undefined) return resolved;
    const parts = resolved.allOf.map(flat);
    return {
      ...resolved,
      properties: Object.assign({}, resolved.properties, ...parts.map((p) => p.properties)),
    };
  };
  return raw === undefined ? {} : flat(raw);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        resolve(typeof address === "object" && address !== null ? address.port : 0),
      );
    });
  });
}
