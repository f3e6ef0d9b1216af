// POST /webhook-endpoints (createWebhookEndpoint): one case per answer the document describes, scaffolded
// by `npm run generate` as todos. See test/contract/plants.test.ts for how cases are written
// (buildTestApp, a real store on both engines).
import { describe, it } from "vitest";

describe("POST /webhook-endpoints (createWebhookEndpoint)", () => {
  it.todo("when …, then 201: Registered");
  it.todo(
    "when …, then 400: The body is not a valid endpoint (see `message`), or the URL is refused: not `https://`, or its host is or resolves to an address that may not receive webhooks",
  );
  it.todo(
    "when …, then 401: The `Authorization` header is missing, uses another scheme than Bearer (the scheme name is case-insensitive), or carries a token the server does not accept: unknown, mistyped (a managed token's checksum does not match), revoked, expired, or a JWT that is not yet valid, has the wrong issuer or audience, an algorithm not accepted, or a bad signature",
  );
  it.todo(
    "when …, then 403: The token is valid but carries scopes, and not the one this operation lists in `x-required-scopes`: `plants:read` to read or list plants, `plants:write` to create or delete one, `webhooks:manage` to register and inspect webhook endpoints",
  );
  it.todo("when …, then 405: The path has no operation for this method");
  it.todo(
    "when …, then 408: The request's headers took longer than {{PLANTSTORE_HEADERS_TIMEOUT_MS}}, or the whole request longer than {{PLANTSTORE_REQUEST_TIMEOUT_MS}}, to arrive",
  );
  it.todo("when …, then 413: The request body is larger than 65536 bytes");
  it.todo("when …, then 415: The body's content type is not JSON, or the body is compressed");
  it.todo(
    "when …, then 429: Too many requests: this caller (a managed token, a JWT's subject, or a static token, however the header is spelt) made more requests in the current minute than the server allows one caller, or this client address sent more rejected credentials in the current minute than it allows one address (both limits are listed in the API's description)",
  );
  it.todo("when …, then 431: The request headers are larger than 16 KiB");
  it.todo("when …, then 500: An unexpected fault in the server");
  it.todo(
    "when …, then 503: The server is shutting down or overloaded; `Retry-After` says when to try again",
  );
});
