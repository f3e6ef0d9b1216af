// Webhook endpoints for the contract suites: registered through the API (on a public IP
// literal, which the default address rules accept with no DNS), tokens with chosen scopes, and
// calls with the test token.
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { issueToken } from "../../src/auth/issue-token.ts";
import { AUTH, JSON_TYPE, type TestApp, uniqueId } from "./app.ts";

export const RECEIVER_URL = "https://93.184.215.14/hooks/plants";

export interface RegisteredEndpoint {
  id: string;
  url: string;
  description: string | null;
  createdAt: string;
  disabledAt: string | null;
  events: string[];
  secret: string;
}

/** A call with the test token (or `headers`); `payload` as JSON unless it is a string. */
export function call(
  test: TestApp,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  options: { headers?: Record<string, string>; payload?: unknown } = {},
): Promise<LightMyRequestResponse> {
  const { headers = AUTH, payload } = options;
  return test.app.inject({
    method,
    url,
    headers: { ...headers, ...(payload === undefined ? {} : JSON_TYPE) },
    ...(payload === undefined
      ? {}
      : { payload: typeof payload === "string" ? payload : JSON.stringify(payload) }),
  });
}

/** Registers an endpoint (201 expected) and returns the answer, secret included. */
export async function registerEndpoint(
  test: TestApp,
  body: { url?: string; description?: string; events?: string[] } = {},
): Promise<RegisteredEndpoint> {
  const res = await call(test, "POST", "/webhook-endpoints", {
    payload: { url: RECEIVER_URL, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as RegisteredEndpoint;
}

/** Authorization for a managed token carrying exactly `scopes`. */
export async function scopedAuth(
  test: TestApp,
  scopes: string[],
): Promise<{ authorization: string }> {
  const { token } = await issueToken(test.db.store.tokens, {
    name: `scoped-${uniqueId()}`,
    scopes,
  });
  return { authorization: `Bearer ${token}` };
}

/** Every scope but webhooks:manage: enough for plants, not for webhooks. */
export const PLANT_SCOPES = ["plants:read", "plants:write"];
