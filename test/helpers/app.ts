// Builds the real app on a real store for app.inject tests, and small request helpers.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, expect } from "vitest";
import { type AppOptions, buildApp } from "../../src/app.ts";
import { type AuthenticatorOptions, createAuthenticator } from "../../src/auth/authenticator.ts";
import { defaultOpsConfig, type OpsConfig } from "../../src/config/config.ts";
import { assertDocumented } from "./contract.ts";
import { type StoreEngine, sqliteEngine, type TestStore } from "./stores.ts";

export const TOKEN = "test-token-0123456789abcdef";
export const OTHER_TOKEN = "other-token-0123456789abcdef";
export const AUTH = { authorization: `Bearer ${TOKEN}` } as const;
export const JSON_TYPE = { "content-type": "application/json" } as const;

export interface TestApp {
  app: FastifyInstance;
  db: TestStore;
  close(): Promise<void>;
}

/** Authentication beyond the two static test tokens and the store's managed tokens, and
 * operating settings changed from their defaults. */
export type TestAppOptions = Partial<Pick<AuthenticatorOptions, "jwt" | "managed">> &
  Pick<AppOptions, "onAuthFailure" | "publicUrl" | "allowPrivateWebhooks"> & {
    ops?: Partial<OpsConfig>;
  };

/** The app on a fresh store; pass `logLines` to collect its log lines (parsed) instead of silence. */
export async function createTestApp(
  engine: StoreEngine = sqliteEngine,
  logLines?: Record<string, unknown>[],
  options: TestAppOptions = {},
): Promise<TestApp> {
  const db = await engine.create();
  const app = await buildApp({
    store: db.store,
    authenticator: (log) =>
      createAuthenticator({
        staticTokens: [TOKEN, OTHER_TOKEN],
        tokens: db.store.tokens,
        jwt: options.jwt,
        log,
        ...(options.managed === undefined ? {} : { managed: options.managed }),
      }),
    ...(options.onAuthFailure === undefined ? {} : { onAuthFailure: options.onAuthFailure }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(options.allowPrivateWebhooks === undefined
      ? {}
      : { allowPrivateWebhooks: options.allowPrivateWebhooks }),
    // No overload guard unless a test sets one: building an app compiles the document's
    // validators, which blocks this process's event loop for a second or more on a busy
    // machine, and every other app alive in the same test file would read that lag as
    // overload and answer 503 (test/socket/overload.test.ts tests the guard on a server).
    ops: { ...defaultOpsConfig(), maxEventLoopDelayMs: 0, ...options.ops },
    ...(logLines === undefined
      ? { logLevel: "silent" }
      : {
          logLevel: "info",
          logStream: { write: (line: string) => logLines.push(JSON.parse(line)) },
        }),
  });
  await app.ready();
  checkEveryAnswer(app);
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}

/** One app per describe block: built before its tests, closed after them. */
export function useTestApp(
  engine: StoreEngine = sqliteEngine,
  options?: TestAppOptions,
): () => TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(engine, undefined, options);
  });
  afterAll(async () => {
    await current?.close();
  });
  return () => {
    if (current === undefined) throw new Error("useTestApp: the app is built in beforeAll");
    return current;
  };
}

/** POST /plants with a valid token; `payload` is sent as-is when it is a string. */
export function postPlant(
  app: FastifyInstance,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "POST",
    url: "/plants",
    headers: { ...AUTH, ...JSON_TYPE, ...headers },
    payload: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
}

let nextId = BigInt(Date.now()) * 1000n;
/** A fresh id per call, so tests never share data. */
export const uniqueId = (): bigint => nextId++;

/** A JSON object text with an exact id, which JSON.stringify cannot write for bigints. */
export const plantJson = (id: bigint | string, name: string, tag?: string): string =>
  `{"id":${id},"name":${JSON.stringify(name)}${tag === undefined ? "" : `,"tag":${JSON.stringify(tag)}`}}`;

/** The contract's Error answer: JSON, `error` equal to the status, a message, nothing else. */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  message?: RegExp,
): { error: number; message: string } {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
  const body = res.json() as { error: number; message: string };
  expect(Object.keys(body).sort()).toEqual(["error", "message"]);
  expect(body.error).toBe(status);
  expect(body.message).toEqual(expect.any(String));
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.message).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  if (message !== undefined) expect(body.message).toMatch(message);
  return body;
}

/**
 * Every answer app.inject gives in a test is checked against openapi/plants.yaml
 * (test/helpers/contract.ts); a mismatch rejects the inject, so the test fails naming it. The
 * rejection's `response` is the answer.
 */
function checkEveryAnswer(app: FastifyInstance): void {
  const inject = app.inject.bind(app);
  const checked = (options: InjectOptions | string): Promise<LightMyRequestResponse> => {
    const {
      method = "GET",
      url = "/",
      headers = {},
    } = typeof options === "string" ? { url: options } : options;
    return inject(options).then((res) => {
      try {
        assertDocumented({
          method: String(method).toUpperCase(),
          url: typeof url === "string" ? url : url.pathname,
          requestHeaders: Object.fromEntries(
            Object.entries(headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
          ),
          status: res.statusCode,
          headers: res.headers,
          body: res.body,
        });
      } catch (error) {
        // The answer goes with the rejection, for a test that compares answers whatever they are.
        throw Object.assign(error as Error, { response: res });
      }
      return res;
    });
  };
  // The chained and callback forms are left as they are; no test uses them.
  app.inject = ((options?: InjectOptions | string, callback?: unknown) =>
    options === undefined || callback !== undefined
      ? (inject as (...args: unknown[]) => unknown)(options, callback)
      : checked(options)) as typeof app.inject;
}
