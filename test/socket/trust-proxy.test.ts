// PLANTSTORE_TRUST_PROXY decides whose address the failed-authentication limit counts: the
// X-Forwarded-For client behind a trusted proxy, or the socket's peer when nothing is trusted.
import { describe, expect, test } from "vitest";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { startServer, useServerSuite } from "../helpers/server-process.ts";
import { expectErrorAnswer, post } from "../helpers/socket-http.ts";

const db = useServerSuite();

const guess = (url: string, forwardedFor: string) =>
  post(url, plantJson(uniqueId(), "guess"), {
    "content-type": "application/json",
    authorization: "Bearer wrong-token-0123456789",
    "x-forwarded-for": forwardedFor,
  });

describe("X-Forwarded-For and the failed-authentication limit", () => {
  test("when the proxy at 127.0.0.1 is trusted, then each forwarded client has its own count", async () => {
    const server = await startServer({
      databasePath: db.path,
      env: { PLANTSTORE_TRUST_PROXY: "127.0.0.1", PLANTSTORE_AUTH_FAILURE_LIMIT: "2" },
    });
    expectErrorAnswer(await guess(server.url, "203.0.113.7"), 401);
    expectErrorAnswer(await guess(server.url, "203.0.113.7"), 401);
    expectErrorAnswer(await guess(server.url, "203.0.113.7"), 429);
    // Another client behind the same proxy is not blocked by the first one's guesses.
    expectErrorAnswer(await guess(server.url, "203.0.113.8"), 401);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  test("when no proxy is trusted (the default), then X-Forwarded-For is ignored and the peer address counts", async () => {
    const server = await startServer({
      databasePath: db.path,
      env: { PLANTSTORE_AUTH_FAILURE_LIMIT: "2" },
    });
    expectErrorAnswer(await guess(server.url, "203.0.113.7"), 401);
    expectErrorAnswer(await guess(server.url, "203.0.113.8"), 401);
    // A forged header does not buy a fresh count.
    const answer = await guess(server.url, "203.0.113.9");
    expectErrorAnswer(answer, 429);
    expect(Number(answer.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });
});
