// The two designs the request pipeline was chosen between, each in its core alone (no logging,
// metrics, CORS or store; the same static-token check and the same constant answers), timed
// through app.inject in alternating rounds: (a) one catch-all Fastify route that hands every
// request to openapi-backend's handleRequest, and (b) a Fastify route per operation, as
// src/openapi/routes.ts builds them. Prints µs a request for a GET /plants/{id} and a
// POST /plants, medians of the rounds. BENCHMARKS.md "Request pipeline" reports the result.
//   npx tsx scripts/bench/pipeline-designs.ts [--rounds 6] [--requests 20000]
import { parseArgs } from "node:util";
import Fastify, { type FastifyInstance } from "fastify";
import { OpenAPIBackend } from "openapi-backend";
import { createStaticTokens } from "../../src/auth/static-tokens.ts";
import { addBodyParsers } from "../../src/http/body-parsers.ts";
import { createRateLimits } from "../../src/http/rate-limit.ts";
import { createApi } from "../../src/openapi/backend.ts";
import { loadDocument } from "../../src/openapi/document.ts";
import type { OperationHandlers } from "../../src/openapi/operation-types.ts";
import { addOperationRoutes } from "../../src/openapi/routes.ts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "6" },
    requests: { type: "string", default: "20000" },
  },
});
const ROUNDS = Number(values.rounds);
const REQUESTS = Number(values.requests);
const TOKEN = "bench-token-0123456789";
const BODY_LIMIT = 64 * 1024;
const checkToken = createStaticTokens([TOKEN]);
const bearer = (authorization: string | undefined) =>
  checkToken(authorization?.replace(/^Bearer /, "") ?? "");

const PLANT = { name: "Monstera", tag: "tropical" };

/** (b): a route per operation, the production module, with constant answers. */
async function routePerOperation(): Promise<FastifyInstance> {
  const app = Fastify({ bodyLimit: BODY_LIMIT });
  addBodyParsers(app, BODY_LIMIT);
  const stored = async () => ({ status: 200, body: { id: 1n, ...PLANT } });
  const created = async () => ({ status: 200, body: PLANT });
  const handlers = new Proxy(
    {},
    { get: (_, operationId) => (operationId === "getPlant" ? stored : created) },
  ) as unknown as OperationHandlers;
  addOperationRoutes(app, {
    api: await createApi(),
    handlers,
    security: {
      schemes: { bearerAuth: bearer, metricsToken: "open" },
      rateLimits: createRateLimits({ tokenRateLimit: 0, authFailureLimit: 0 }),
    },
    bodyLimit: BODY_LIMIT,
  });
  return app;
}

/** (a): one route; openapi-backend routes, authenticates, validates and calls the handler. */
async function handleRequestOnly(): Promise<FastifyInstance> {
  const api = new OpenAPIBackend({
    definition: loadDocument(),
    strict: true,
    validate: true,
    coerceTypes: false,
    customizeAjv: (ajv) => ajv.addFormat("int64", { type: "number", validate: () => true }),
    ajvOpts: { allErrors: true, coerceTypes: false, useDefaults: false },
  });
  api.registerSecurityHandler("bearerAuth", (context) => {
    const outcome = bearer(context.request.headers["authorization"] as string | undefined);
    return outcome.ok;
  });
  api.registerSecurityHandler("metricsToken", () => true);
  const answer = (status: number, body: unknown) => ({ status, body });
  api.register({
    notFound: () => answer(404, { error: 404, message: "not found" }),
    methodNotAllowed: () => answer(405, { error: 405, message: "not allowed" }),
    unauthorizedHandler: () => answer(401, { error: 401, message: "unauthorized" }),
    validationFail: () => answer(400, { error: 400, message: "invalid" }),
  });
  await api.init();
  for (const operation of api.router.getOperations()) {
    const body = operation.operationId === "getPlant" ? { id: 1, ...PLANT } : PLANT;
    api.registerHandler(operation.operationId as string, () => answer(200, body));
  }
  const app = Fastify({ bodyLimit: BODY_LIMIT });
  app.all("*", async (request, reply) => {
    const { status, body } = (await api.handleRequest({
      method: request.method,
      path: request.url.split("?")[0] ?? "/",
      query: request.query as Record<string, string>,
      headers: request.headers as Record<string, string>,
      body: request.body,
    })) as { status: number; body: unknown };
    return reply.code(status).send(body);
  });
  return app;
}

const REQUESTS_OF = {
  "GET /plants/{id}": {
    method: "GET" as const,
    url: "/plants/9007199254740993",
    headers: { authorization: `Bearer ${TOKEN}` },
  },
  "POST /plants": {
    method: "POST" as const,
    url: "/plants",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    payload: '{"id":9007199254740993,"name":"Monstera","tag":"tropical"}',
  },
};

async function timeOf(
  app: FastifyInstance,
  request: (typeof REQUESTS_OF)[keyof typeof REQUESTS_OF],
) {
  const first = await app.inject(request);
  if (first.statusCode !== 200)
    throw new Error(`${request.url}: ${first.statusCode} ${first.body}`);
  const started = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) await app.inject(request);
  return Number(process.hrtime.bigint() - started) / 1000 / REQUESTS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const designs = {
  "(a) handleRequest": await handleRequestOnly(),
  "(b) route per operation": await routePerOperation(),
};
for (const [what, request] of Object.entries(REQUESTS_OF)) {
  const times: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating, and in the other order each round, so drift falls on both alike.
    const order = Object.entries(designs);
    if (round % 2 === 1) order.reverse();
    for (const [name, app] of order) {
      const list = times[name] ?? [];
      list.push(await timeOf(app, request));
      times[name] = list;
    }
  }
  const line = Object.entries(times).map(([name, t]) => `${name} ${median(t).toFixed(1)} µs`);
  process.stdout.write(`${what}: ${line.join(", ")}\n`);
}
for (const app of Object.values(designs)) await app.close();
