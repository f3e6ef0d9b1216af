// PATCH /webhook-endpoints/{id} (updateWebhookEndpoint): one case per answer of the operation's own, scaffolded
// by `npm run generate` as todos (the shared answers by $ref have suites of their own). See
// test/contract/plants.test.ts for how cases are written (createTestApp, on every engine).
import { describe, it } from "vitest";

describe("PATCH /webhook-endpoints/{id} (updateWebhookEndpoint)", () => {
  it.todo("when …, then 200: The endpoint as stored after the change");
  it.todo(
    "when …, then 400: The body is not a valid change (see `message`): not a JSON object, empty, a member other than `events` and `description`, or an event this API does not send; or a query parameter was sent",
  );
  it.todo(
    "when …, then 403: The token is valid but carries scopes, and not the one this operation lists in `x-required-scopes`: `plants:read` to read or list plants, `plants:write` to create, change or delete one, `webhooks:manage` to register and inspect webhook endpoints",
  );
  it.todo(
    "when …, then 404: No webhook endpoint is registered under this id (or, for a delivery, it has none with that id)",
  );
  it.todo(
    "when …, then 413: The request body is larger than 65536 bytes (64 KiB), the most this server takes",
  );
  it.todo(
    "when …, then 415: The body's content type is not one the operation declares, or the body is compressed",
  );
});
