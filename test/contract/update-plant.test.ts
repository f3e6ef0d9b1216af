// PATCH /plants/{id} (updatePlant): one case per answer the document describes, scaffolded
// by `npm run generate` as todos. See test/contract/plants.test.ts for how cases are written
// (buildTestApp, a real store on both engines).
import { describe, it } from "vitest";

describe("PATCH /plants/{id} (updatePlant)", () => {
  it.todo("when …, then 200: The plant as stored after the change, with its id");
  it.todo("when …, then 400: The request is malformed: the id in the path is not a canonical decimal int64, a query parameter was sent, or the body is missing, is not valid UTF-8 JSON, is not a JSON object, is empty (`{}`: nothing to change), has a member other than `name` and `tag` (`id` included: an id cannot be changed), has a member of the wrong type (no coercion; `name` cannot be null), or a string the store cannot keep exactly (unpaired UTF-16 surrogates, or the NUL character U+0000)");
  it.todo("when …, then 401: The `Authorization` header is missing, uses another scheme than Bearer (the scheme name is case-insensitive), or carries a token the server does not accept: unknown, mistyped (a managed token's checksum does not match), revoked, expired, or a JWT that is not yet valid, has the wrong issuer or audience, an algorithm not accepted, or a bad signature");
  it.todo("when …, then 403: The token is valid but carries scopes, and not the one this operation lists in `x-required-scopes`: `plants:read` to read or list plants, `plants:write` to create, change or delete one");
  it.todo("when …, then 404: No plant is stored under this id (never created, or deleted)");
  it.todo("when …, then 405: The path has no operation for this method");
  it.todo("when …, then 408: The request's headers took longer than {{PLANTSTORE_HEADERS_TIMEOUT_MS}}, or the whole request longer than {{PLANTSTORE_REQUEST_TIMEOUT_MS}}, to arrive");
  it.todo("when …, then 413: The request body is larger than 65536 bytes");
  it.todo("when …, then 415: The body's content type is not one the operation declares, or the body is compressed");
  it.todo("when …, then 429: Too many requests: this caller (a managed token, a JWT's subject, or a static token, however the header is spelt) made more requests in the current minute than the server allows one caller, or this client address sent more rejected credentials in the current minute than it allows one address (both limits are listed in the API's description)");
  it.todo("when …, then 431: The request headers are larger than 16 KiB");
  it.todo("when …, then 500: An unexpected fault in the server");
  it.todo("when …, then 503: The server cannot take the request now, for any of the reasons POST /plants lists; `Retry-After` says how many seconds to wait");
});
