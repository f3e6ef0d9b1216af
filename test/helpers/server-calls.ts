// Calls to a spawned server over HTTP with the shared test token, for the delivery suites.
import { expect } from "vitest";
import { AUTH, JSON_TYPE } from "./app.ts";
import type { ServerProcess } from "./server-process.ts";

/** One request; a body that is not a string is sent as its JSON. */
export async function call(server: ServerProcess, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...AUTH, ...(body === undefined ? {} : JSON_TYPE) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: text === "" ? undefined : JSON.parse(text) };
}

/**
 * Registers a webhook endpoint for `url`, sent `events` (the new-plant webhook these suites
 * deliver, unless they say otherwise); its id and secret.
 */
export async function register(server: ServerProcess, url: string, events = ["newPlant"]) {
  const answer = await call(server, "POST", "/webhook-endpoints", { url, events });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; secret: string };
}
