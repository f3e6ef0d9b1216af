// A third-party check of the contract: Stoplight Prism, as a proxy in front of a real server,
// validates every request and answer of a traffic set against openapi/plants.yaml. The set
// covers every documented answer except those listed in NOT_THROUGH_PRISM, with the reason;
// Prism must report no violation in either direction.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../src/openapi/document.ts";
import { plantJson, TOKEN } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { AUDIENCE, ISSUER, signingKey, signJwt } from "../helpers/jwt.ts";
import { markRan } from "../helpers/ran-marker.ts";
import {
  REPO_ROOT,
  type ServerProcess,
  startServer,
  useServerSuite,
} from "../helpers/server-process.ts";

const PRISM = createRequire(import.meta.url).resolve("@stoplight/prism-cli/dist/index.js");
const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const WRONG_TOKEN = "wrong-token-0123456789abcdef";
// One rejected token per operation that needs credentials (five), then the address is limited.
const AUTH_FAILURE_LIMIT = 5;

/** Documented answers this traffic cannot produce through a proxy, and why. */
const ALL_OPERATIONS = "*";
const NOT_THROUGH_PRISM: Readonly<Record<string, string>> = {
  [`${ALL_OPERATIONS} 405`]: "Prism answers a method the document lacks itself, without forwarding",
  [`${ALL_OPERATIONS} 500`]: "needs a fault in the server",
  [`${ALL_OPERATIONS} 503`]:
    "needs a server that is shutting down, overloaded or without its database (createPlant's JWT-key 503 is covered)",
  "createPlant 404":
    "answered only for paths the document does not describe, which Prism refuses itself",
  [`${ALL_OPERATIONS} 408`]:
    "a request that arrives too slowly is cut off by the proxy, not forwarded slowly",
  [`${ALL_OPERATIONS} 431`]:
    "a request with 16 KiB of headers is refused by the proxy's own HTTP parser",
  "createPlant 415": "Prism refuses an undocumented content type as a request violation",
};
// createPlant's 503 does go through: a JWT whose keys cannot be fetched.
const THROUGH_PRISM_ANYWAY = new Set(["createPlant 503"]);

interface Traffic {
  operation: string;
  status: number;
  method: "GET" | "POST" | "DELETE";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const json = { "content-type": "application/json" };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("Stoplight Prism in front of a real server", () => {
  const db = useServerSuite();
  let server: ServerProcess;
  let prism: ChildProcess;
  let prismUrl = "";
  let prismOutput = "";
  let readOnly = "";
  let writeOnly = "";
  let jwt = "";

  beforeAll(async () => {
    const closedPort = await freePort();
    server = await startServer({
      databasePath: db.path,
      env: {
        PLANTSTORE_METRICS_TOKEN: METRICS_TOKEN,
        PLANTSTORE_AUTH_FAILURE_LIMIT: String(AUTH_FAILURE_LIMIT),
        PLANTSTORE_JWT_ISSUER: ISSUER,
        PLANTSTORE_JWT_AUDIENCE: AUDIENCE,
        // Nothing listens there: every JWT gets 503 (keys unavailable).
        PLANTSTORE_JWT_JWKS_URL: `http://127.0.0.1:${closedPort}/jwks.json`,
      },
    });
    const scoped = async (scope: string) => {
      const created = await runCli(`sqlite:${db.path}`, [
        "tokens",
        "create",
        "--name",
        scope.replace(":", "-"),
        "--scopes",
        scope,
      ]);
      expect(created.code, created.stderr).toBe(0);
      return created.stdout.trim();
    };
    readOnly = await scoped("plants:read");
    writeOnly = await scoped("plants:write");
    jwt = await signJwt(await signingKey("ES256", "k1"));

    const port = await freePort();
    prismUrl = `http://127.0.0.1:${port}`;
    prism = spawn(
      process.execPath,
      [
        PRISM,
        "proxy",
        "openapi/plants.yaml",
        server.url,
        "--errors",
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
      ],
      { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    const listening = new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        prismOutput += chunk.toString("utf8");
        if (prismOutput.includes("Prism is listening")) resolve();
      };
      prism.stdout?.on("data", onData);
      prism.stderr?.on("data", onData);
      prism.once("exit", (code) => reject(new Error(`prism exited (${code}): ${prismOutput}`)));
    });
    await listening;
  }, 60_000);

  afterAll(async () => {
    if (prism !== undefined && prism.exitCode === null) {
      const exited = new Promise((resolve) => prism.once("exit", resolve));
      prism.kill("SIGTERM");
      await exited;
    }
    await server?.stop();
  });

  it("when a traffic set for every documented answer goes through it, then Prism reports no violation", async () => {
    const traffic: Traffic[] = [
      ...createPlantTraffic(readOnly, jwt),
      ...plantReadAndDeleteTraffic(readOnly, writeOnly),
      ...[
        "getHealth /healthz",
        "getReadiness /readyz",
        "getOpenApiJson /openapi.json",
        "getOpenApiYaml /openapi.yaml",
        "getDocs /docs",
      ].flatMap((entry) => {
        const [operation = "", path = ""] = entry.split(" ");
        return [
          { operation, status: 200, method: "GET" as const, path },
          { operation, status: 400, method: "GET" as const, path: `${path}?debug=1` },
        ];
      }),
      ...["getOpenApiJson /openapi.json", "getOpenApiYaml /openapi.yaml"].map((entry) => {
        const [operation = "", path = ""] = entry.split(" ");
        return {
          operation,
          status: 304,
          method: "GET" as const,
          path,
          headers: { "if-none-match": "*" },
        };
      }),
      { operation: "getDocsAsset", status: 200, method: "GET", path: "/docs/swagger-ui.css" },
      { operation: "getDocsAsset", status: 200, method: "GET", path: "/docs/init.js" },
      { operation: "getDocsAsset", status: 400, method: "GET", path: "/docs/init.js?v=1" },
      { operation: "getDocsAsset", status: 404, method: "GET", path: "/docs/index.html" },
      {
        operation: "getMetrics",
        status: 200,
        method: "GET",
        path: "/metrics",
        headers: bearer(METRICS_TOKEN),
      },
      {
        operation: "getMetrics",
        status: 400,
        method: "GET",
        path: "/metrics?x=1",
        headers: bearer(METRICS_TOKEN),
      },
      {
        operation: "getMetrics",
        status: 401,
        method: "GET",
        path: "/metrics",
        headers: bearer(WRONG_TOKEN),
      },
      // Last: the five 401s above (one per operation that needs credentials) reach the
      // failed-authentication limit, so this address now gets 429 for every such operation.
      {
        operation: "createPlant",
        status: 429,
        method: "POST",
        path: "/plants",
        headers: { ...json, ...bearer(TOKEN) },
        body: plantJson(1n, "x"),
      },
      {
        operation: "listPlants",
        status: 429,
        method: "GET",
        path: "/plants",
        headers: bearer(TOKEN),
      },
      {
        operation: "getPlant",
        status: 429,
        method: "GET",
        path: "/plants/7001",
        headers: bearer(TOKEN),
      },
      {
        operation: "deletePlant",
        status: 429,
        method: "DELETE",
        path: "/plants/7001",
        headers: bearer(TOKEN),
      },
      {
        operation: "getMetrics",
        status: 429,
        method: "GET",
        path: "/metrics",
        headers: bearer(METRICS_TOKEN),
      },
    ];

    for (const request of traffic) {
      const response = await fetch(`${prismUrl}${request.path}`, {
        method: request.method,
        headers: request.headers ?? {},
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: AbortSignal.timeout(15_000),
      });
      const body = await response.text();
      const what = `${request.method} ${request.path} (${request.operation} ${request.status})`;
      expect(response.headers.get("sl-violations"), `${what}: ${body.slice(0, 300)}`).toBeNull();
      expect(response.headers.get("content-type") ?? "", what).not.toContain("problem+json");
      expect(response.status, `${what}: ${body.slice(0, 300)}`).toBe(request.status);
    }
    expect(prismOutput).not.toMatch(/Violation|✖/);

    // Every documented answer is in the traffic, or listed with the reason it cannot be.
    const covered = new Set(traffic.map((t) => `${t.operation} ${t.status}`));
    const missing = documentedAnswers().filter(
      (answer) => !covered.has(answer) && !excluded(answer),
    );
    expect(missing).toEqual([]);
    markRan("prism");
  });
});

function excluded(answer: string): boolean {
  if (THROUGH_PRISM_ANYWAY.has(answer)) return false;
  return (
    answer in NOT_THROUGH_PRISM || `${ALL_OPERATIONS} ${answer.split(" ")[1]}` in NOT_THROUGH_PRISM
  );
}

function createPlantTraffic(scopedToken: string, jwt: string): Traffic[] {
  const create = (status: number, headers: Record<string, string>, body: string): Traffic => ({
    operation: "createPlant",
    status,
    method: "POST",
    path: "/plants",
    headers: { ...json, ...headers },
    body,
  });
  const ok = bearer(TOKEN);
  return [
    create(200, ok, plantJson(7001n, "Monstera", "tropical")),
    create(200, ok, plantJson(7001n, "Monstera", "tropical")),
    create(409, ok, plantJson(7001n, "Philodendron", "tropical")),
    // Valid for the schema, refused by the store: a NUL cannot be kept exactly.
    create(400, ok, plantJson(7002n, "Aloe\u0000vera")),
    create(401, bearer(WRONG_TOKEN), plantJson(7003n, "x")),
    create(403, bearer(scopedToken), plantJson(7004n, "x")),
    create(413, ok, plantJson(7005n, "a".repeat(70_000))),
    create(503, bearer(jwt), plantJson(7006n, "x")),
  ];
}

/** GET /plants, GET and DELETE /plants/{id}, after createPlantTraffic stored 7001. */
function plantReadAndDeleteTraffic(readOnly: string, writeOnly: string): Traffic[] {
  const call = (
    operation: string,
    status: number,
    method: Traffic["method"],
    path: string,
    token = TOKEN,
  ): Traffic => ({ operation, status, method, path, headers: bearer(token) });
  return [
    call("listPlants", 200, "GET", "/plants"),
    call("listPlants", 200, "GET", "/plants?limit=1&after=-5"),
    call("listPlants", 200, "GET", "/plants", readOnly),
    call("listPlants", 400, "GET", "/plants?debug=1"),
    call("listPlants", 401, "GET", "/plants", WRONG_TOKEN),
    call("listPlants", 403, "GET", "/plants", writeOnly),
    call("getPlant", 200, "GET", "/plants/7001"),
    call("getPlant", 400, "GET", "/plants/7001?debug=1"),
    call("getPlant", 401, "GET", "/plants/7001", WRONG_TOKEN),
    call("getPlant", 403, "GET", "/plants/7001", writeOnly),
    call("getPlant", 404, "GET", "/plants/7999"),
    call("deletePlant", 400, "DELETE", "/plants/7001?debug=1"),
    call("deletePlant", 401, "DELETE", "/plants/7001", WRONG_TOKEN),
    call("deletePlant", 403, "DELETE", "/plants/7001", readOnly),
    call("deletePlant", 204, "DELETE", "/plants/7001", writeOnly),
    call("deletePlant", 404, "DELETE", "/plants/7001"),
    call("getPlant", 404, "GET", "/plants/7001"),
  ];
}

/** "operationId status" for every response the document describes. */
function documentedAnswers(): string[] {
  const doc = loadDocument() as unknown as {
    paths: Record<string, Record<string, { operationId: string; responses: object }>>;
  };
  return Object.values(doc.paths).flatMap((operations) =>
    Object.entries(operations).flatMap(([key, op]) =>
      key === "parameters"
        ? []
        : Object.keys(op.responses).map((status) => `${op.operationId} ${status}`),
    ),
  );
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
