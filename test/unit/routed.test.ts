// The routed handler (src/openapi/routed.ts) runs handleRequest's steps without awaiting a step
// that answered at once. This app registers no preRoutingHandler or preOperationHandler, and
// its own steps mostly answer at once, so the differential test cannot reach every place a
// request goes on from after waiting: here every step, in every combination, answers either at
// once or later, and each run must take the same steps, in the same order, to the same answer
// as openapi-backend's own handleRequest.
import type { Context, Request } from "openapi-backend";
import { OpenAPIBackend } from "openapi-backend";
import { describe, expect, it } from "vitest";
import type { Call } from "../../src/openapi/backend.ts";
import { createRoutedHandler } from "../../src/openapi/routed.ts";

const STEPS = [
  "preRoutingHandler",
  "postRoutingHandler",
  "bearer",
  "postSecurityHandler",
  "preOperationHandler",
] as const;
type StepName = (typeof STEPS)[number];

const definition = {
  openapi: "3.0.3",
  info: { title: "steps", version: "1" },
  components: { securitySchemes: { bearer: { type: "http" as const, scheme: "bearer" } } },
  paths: {
    "/things": {
      get: {
        operationId: "getThings",
        security: [{ bearer: [] }],
        responses: { "200": { description: "ok" } },
      },
    },
  },
};

/** The steps a run took, and how its steps answer: later when named in `later`. */
interface Run {
  later: ReadonlySet<StepName>;
  authorized: boolean;
  taken: string[];
}

/** An API whose steps record themselves in the current run, and answer as it says. */
async function recordingApi(current: () => Run) {
  const step =
    (name: StepName, result: (run: Run) => unknown = () => undefined) =>
    (): unknown => {
      const run = current();
      run.taken.push(name);
      const value = result(run);
      if (!run.later.has(name)) return value;
      // Recorded as it settles too, so that a step run before it had is seen.
      return Promise.resolve().then(() => {
        run.taken.push(`${name} settled`);
        return value;
      });
    };
  const api = new OpenAPIBackend({
    definition,
    strict: true,
    validate: false,
    securityHandlers: { bearer: step("bearer", (run) => run.authorized) },
    handlers: {
      preRoutingHandler: step("preRoutingHandler"),
      postRoutingHandler: step("postRoutingHandler"),
      postSecurityHandler: step("postSecurityHandler"),
      preOperationHandler: step("preOperationHandler"),
      unauthorizedHandler: (c: Context) => {
        current().taken.push("unauthorizedHandler");
        return { status: 401, body: { authorized: c.security["authorized"] } };
      },
      getThings: (c: Context) => {
        current().taken.push("getThings");
        return Promise.resolve({ status: 200, body: { authorized: c.security["authorized"] } });
      },
      notFound: () => ({ status: 404 }),
    },
  });
  await api.init();
  return api;
}

const request = (): Request => ({ method: "GET", path: "/things", headers: {} });
const callFor = (): Call => ({
  request: request(),
  readBody: () => ({ ok: false, problem: { status: 400, message: "none" } }),
});

/** Every subset of the steps, as the ones that answer later. */
const subsets: StepName[][] = Array.from({ length: 2 ** STEPS.length }, (_, mask) =>
  STEPS.filter((_, at) => (mask & (1 << at)) !== 0),
);

describe("routed handler: handleRequest's steps, waiting only on a promise", async () => {
  let run: Run = { later: new Set(), authorized: true, taken: [] };
  const api = await recordingApi(() => run);
  const [operation] = api.router.getOperations();
  if (operation === undefined) throw new Error("no operation");
  const routed = createRoutedHandler(api);

  for (const authorized of [true, false]) {
    it(`when any mix of steps answers later (${authorized ? "authorized" : "refused"}), then the steps, their order and the answer are handleRequest's`, async () => {
      for (const later of subsets) {
        const reference: Run = { later: new Set(later), authorized, taken: [] };
        run = reference;
        const expected = await api.handleRequest(request(), callFor());
        const ours: Run = { later: new Set(later), authorized, taken: [] };
        run = ours;
        const answer = await routed(operation, callFor());
        expect({ later, answer, taken: ours.taken }).toEqual({
          later,
          answer: expected,
          taken: reference.taken,
        });
      }
    });
  }

  it("when every step answers at once, then the answer comes back without a promise around it", () => {
    run = { later: new Set(), authorized: false, taken: [] };
    expect(routed(operation, callFor())).toEqual({ status: 401, body: { authorized: false } });
  });
});
