// The client (`plantstore-client`, src/client/) against a real server on each engine: ids
// beyond 2^53 and at the int64 bounds round-trip exactly, errors arrive typed with their
// Error body, paging follows rel="next", and idempotent calls are retried after a 503. The
// same round-trip through plain openapi-fetch (ids typed as numbers, JSON.parse) loses the id,
// so the difference is shown, not claimed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import createFetchClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { issueToken } from "../../src/auth/issue-token.ts";
import { createClient, PlantStoreError } from "../../src/client/index.ts";
import { INT64_MAX, INT64_MIN } from "../../src/text/int64.ts";
import { TOKEN, uniqueId } from "../helpers/app.ts";
import { documentedOperations } from "../helpers/document.ts";
import { useRunningServer } from "../helpers/running-server.ts";
import { killLeftoverServers, type ServerProcess, startServer } from "../helpers/server-process.ts";
import { sqliteEngine, storeEngines, type TestStore } from "../helpers/stores.ts";

const BEYOND_DOUBLES = 2n ** 53n + 1n; // 9007199254740993: a double holds …992 or …994

describe.each(storeEngines)("the client against a real server ($name)", (engine) => {
  const running = useRunningServer(engine);
  const client = () => createClient({ baseUrl: running().server.url, token: TOKEN });

  it("when 2^53+1 and the int64 bounds are created, read and listed, then every id comes back exactly as a bigint", async () => {
    for (const id of [BEYOND_DOUBLES, INT64_MAX, INT64_MIN]) {
      expect(await client().createPlant({ body: { id, name: `exact ${id}`, tag: "t" } })).toEqual({
        name: `exact ${id}`,
        tag: "t",
      });
      expect(await client().getPlant({ path: { id } })).toEqual({
        id,
        name: `exact ${id}`,
        tag: "t",
      });
      expect(await running().db.store.resources.plants.get(id)).toEqual({
        id,
        name: `exact ${id}`,
        tag: "t",
      });
    }
    // The neighbour a double would have rounded to is not there.
    await expect(client().getPlant({ path: { id: BEYOND_DOUBLES - 1n } })).rejects.toMatchObject({
      status: 404,
    });
    const [first] = await client().listPlants({ query: { limit: 1 } });
    expect(first?.id).toBe(INT64_MIN);
    const page = await client().listPlants({ query: { after: BEYOND_DOUBLES - 1n, limit: 1 } });
    expect(page).toEqual([{ id: BEYOND_DOUBLES, name: `exact ${BEYOND_DOUBLES}`, tag: "t" }]);
  });

  it("when an id is given as a number that is not a safe integer, then it is refused before anything is sent", async () => {
    // What a number-typed client would pass: 2^53 + 1 already rounded to a double.
    const unsafe = (2 ** 53 + 2) as unknown as bigint;
    await expect(client().createPlant({ body: { id: unsafe, name: "rounded" } })).rejects.toThrow(
      /cannot hold this integer exactly.*pass a bigint/,
    );
    await expect(client().getPlant({ path: { id: unsafe } })).rejects.toThrow(/pass a bigint/);
    expect(await running().db.store.resources.plants.get(2n ** 53n + 2n)).toBeUndefined();
  });

  it("when the server refuses, then the error is a PlantStoreError with the status and the Error body (409, 401, 403, 404)", async () => {
    const id = uniqueId();
    await client().createPlant({ body: { id, name: "first" } });
    const conflict = await client()
      .createPlant({ body: { id, name: "second" } })
      .catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(PlantStoreError);
    expect(conflict).toMatchObject({
      status: 409,
      body: {
        error: 409,
        message: `a plant with id ${id} already exists with a different name or tag`,
      },
    });
    const stranger = createClient({
      baseUrl: running().server.url,
      token: "not-a-known-token-0123456789",
    });
    await expect(stranger.getPlant({ path: { id } })).rejects.toMatchObject({
      status: 401,
      body: { error: 401 },
    });
    const { token } = await issueToken(running().db.store.tokens, {
      name: `reader-${uniqueId()}`,
      scopes: ["plants:read"],
    });
    const reader = createClient({ baseUrl: running().server.url, token });
    expect(await reader.getPlant({ path: { id } })).toEqual({ id, name: "first" });
    await expect(reader.deletePlant({ path: { id } })).rejects.toMatchObject({
      status: 403,
      body: { message: expect.stringContaining("plants:write") },
    });
    await client().deletePlant({ path: { id } });
    await expect(client().getPlant({ path: { id } })).rejects.toMatchObject({ status: 404 });
    await expect(client().deletePlant({ path: { id } })).rejects.toMatchObject({ status: 404 });
  });

  it("when every plant is iterated with a small page, then each comes once, in order, following rel=next", async () => {
    const ids = Array.from({ length: 23 }, (_, i) => 10n ** 15n + BigInt(i) * 7n);
    for (const id of ids) await client().createPlant({ body: { id, name: `paged ${id}` } });
    const seen: bigint[] = [];
    for await (const plant of client().plants({ after: 10n ** 15n - 1n, limit: 5 })) {
      if (plant.id > (ids.at(-1) ?? 0n)) break;
      seen.push(plant.id);
    }
    expect(seen).toEqual(ids);
  });

  it("when any operation is called by its operationId, then it is typed and answered", async () => {
    expect(await client().call("getHealth")).toEqual({ status: "ok" });
    const id = uniqueId();
    await client().call("createPlant", { body: { id, name: "by call" } });
    expect(await client().call("getPlant", { path: { id } })).toEqual({ id, name: "by call" });
  });

  it("when the document is read, then every operation in it is a method of the client, and header parameters are sent", async () => {
    const methods = client() as unknown as Record<string, unknown>;
    for (const { operationId } of documentedOperations()) {
      expect(typeof methods[operationId], operationId).toBe("function");
    }
    await expect(
      client().getOpenApiJson({ header: { "If-None-Match": "*" } }),
    ).rejects.toMatchObject({ status: 304 });
    expect(await client().getOpenApiJson()).toHaveProperty("openapi");
  });
});

describe("retries", () => {
  let db: TestStore;
  let server: ServerProcess;
  let front: Server;
  let frontUrl = "";
  /** Requests to answer 503 (Retry-After: 1) before passing the rest to the real server. */
  let refuse = 0;
  /** Requests whose answer is dropped (the connection closed) after the server has it. */
  let dropAnswers = 0;
  /** A Link header to put on answers instead of the server's. */
  let replaceLink: string | undefined;
  const seen: string[] = [];

  beforeAll(async () => {
    db = await sqliteEngine.create();
    server = await startServer({ databaseUrl: db.url });
    front = createServer(async (request, response) => {
      seen.push(`${request.method} ${request.url}`);
      if (refuse > 0) {
        refuse--;
        response.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
        response.end('{"error":503,"message":"the store is unavailable; retry shortly"}');
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      // fetch sets the length of what it sends itself.
      const { "content-length": _length, ...forwarded } = request.headers;
      const answer = await fetch(`${server.url}${request.url}`, {
        method: request.method ?? "GET",
        headers: forwarded as Record<string, string>,
        ...(body.length === 0 ? {} : { body }),
      });
      const text = await answer.text();
      if (dropAnswers > 0) {
        dropAnswers--;
        request.socket.destroy();
        return;
      }
      const headers = Object.fromEntries(answer.headers);
      if (replaceLink !== undefined) headers["link"] = replaceLink;
      response.writeHead(answer.status, headers);
      response.end(text);
    });
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => front?.close(resolve));
    await server?.stop();
    await killLeftoverServers();
    await db?.destroy();
  });

  it("when a create meets a 503 with Retry-After, then it is sent again after that wait and succeeds", async () => {
    // Each answer arrives whole, so that once one is counted the client has decided its wait.
    const sent: string[] = [];
    const answers: number[] = [];
    const client = createClient({
      baseUrl: frontUrl,
      token: TOKEN,
      fetch: async (input, init) => {
        sent.push(init?.method ?? "GET");
        const response = await fetch(input, init);
        const whole = new Response(await response.arrayBuffer(), response);
        answers.push(response.status);
        return whole;
      },
    });
    const id = uniqueId();
    refuse = 1;
    seen.length = 0;
    // The client's wait is on the test's clock: nothing is sent again until it has run.
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const creating = client.createPlant({ body: { id, name: "after a 503" } });
      // Polled on a real timer: vi.waitUntil would move the faked clock on.
      while (answers.length < 1) await sleep(10);
      await vi.advanceTimersByTimeAsync(999);
      expect(sent).toEqual(["POST"]);
      await vi.advanceTimersByTimeAsync(1);
      expect(sent).toEqual(["POST", "POST"]);
      expect(await creating).toEqual({ name: "after a 503" });
    } finally {
      vi.useRealTimers();
    }
    expect(answers).toEqual([503, 200]);
    expect(seen).toEqual(["POST /plants", "POST /plants"]);
    expect(await db.store.resources.plants.get(id)).toEqual({ id, name: "after a 503" });
  });

  it("when 503s outlast the attempts, then the last 503 is thrown as a PlantStoreError", async () => {
    const client = createClient({
      baseUrl: frontUrl,
      token: TOKEN,
      retry: { attempts: 2, maxDelayMs: 10 },
    });
    refuse = 5;
    seen.length = 0;
    await expect(
      client.createPlant({ body: { id: uniqueId(), name: "never" } }),
    ).rejects.toMatchObject({
      status: 503,
    });
    expect(seen).toHaveLength(2);
    refuse = 0;
  });

  it("when 503s with Retry-After: 1 go on past a budget of 1.5 s, then no attempt starts past it", async () => {
    const client = createClient({
      baseUrl: frontUrl,
      token: TOKEN,
      retry: { attempts: 10, budgetMs: 1500 },
    });
    refuse = 10;
    seen.length = 0;
    await expect(client.getPlant({ path: { id: 1n } })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(2);
    refuse = 0;
  });

  it("when a delete met a 503 and its retry finds nothing, then that 404 is reported, not taken for done", async () => {
    const client = createClient({ baseUrl: frontUrl, token: TOKEN, retry: { maxDelayMs: 10 } });
    refuse = 1;
    await expect(client.deletePlant({ path: { id: uniqueId() } })).rejects.toMatchObject({
      status: 404,
    });
  });

  it("when a next link names another origin, then the client will not send its token there", async () => {
    const client = createClient({ baseUrl: frontUrl, token: TOKEN });
    await client.createPlant({ body: { id: uniqueId(), name: "paged" } });
    replaceLink = '<https://elsewhere.example/plants?after=1&limit=1>; rel="next"';
    try {
      const pages = async () => {
        for await (const _plant of client.plants({ limit: 1 })) {
          // reading on until the link is followed
        }
      };
      await expect(pages()).rejects.toThrow(/another origin/);
    } finally {
      replaceLink = undefined;
    }
  });

  it("when a delete's answer is lost, then the retry's 404 counts as deleted", async () => {
    const client = createClient({ baseUrl: frontUrl, token: TOKEN, retry: { maxDelayMs: 10 } });
    const id = uniqueId();
    await client.createPlant({ body: { id, name: "to delete" } });
    dropAnswers = 1;
    await client.deletePlant({ path: { id } });
    expect(await db.store.resources.plants.get(id)).toBeUndefined();
  });
});

describe("plain openapi-fetch (ids as numbers, JSON.parse), for comparison", () => {
  const running = useRunningServer(sqliteEngine);

  it("when 9007199254740993 is created and read the usual way, then the wrong plant is stored and the id read back is rounded", async () => {
    // What a generator that types int64 as number produces; the literal is already a double.
    const plain = createFetchClient<{
      "/plants": {
        post: {
          requestBody: { content: { "application/json": { id: number; name: string } } };
          responses: { 200: { content: { "application/json": unknown } } };
        };
      };
    }>({ baseUrl: running().server.url, headers: { authorization: `Bearer ${TOKEN}` } });
    const { response } = await plain.POST("/plants", {
      // biome-ignore lint/correctness/noPrecisionLoss: the precision loss is what this shows
      body: { id: 9007199254740993, name: "the usual way" },
    });
    expect(response.status).toBe(200);
    expect(await running().db.store.resources.plants.get(BEYOND_DOUBLES)).toBeUndefined();
    expect(await running().db.store.resources.plants.get(BEYOND_DOUBLES - 1n)).toEqual({
      id: BEYOND_DOUBLES - 1n,
      name: "the usual way",
    });

    // And reading an exact id with JSON.parse rounds it.
    const exact = createClient({ baseUrl: running().server.url, token: TOKEN });
    await exact.createPlant({ body: { id: BEYOND_DOUBLES + 2n, name: "odd" } });
    const answer = await fetch(`${running().server.url}/plants/${BEYOND_DOUBLES + 2n}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const text = await answer.text();
    expect(text).toContain(`"id":${BEYOND_DOUBLES + 2n}`);
    expect(String((JSON.parse(text) as { id: number }).id)).not.toBe(String(BEYOND_DOUBLES + 2n));
    expect((await exact.getPlant({ path: { id: BEYOND_DOUBLES + 2n } })).id).toBe(
      BEYOND_DOUBLES + 2n,
    );
  });
});
