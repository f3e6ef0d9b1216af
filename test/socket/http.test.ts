// HTTP over a real socket against the spawned server: body size limit, content types,
// malformed HTTP and the exact shape of answers on the wire.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Store } from "../../src/store/store.ts";
import { AUTH, plantJson, uniqueId } from "../helpers/app.ts";
import { documentedPaths } from "../helpers/document.ts";
import {
  closeServerFixture,
  openServerFixture,
  type ServerProcess,
  type TempDb,
} from "../helpers/server-process.ts";
import {
  expectErrorAnswer,
  expectPlantAnswer,
  post,
  rawExchange,
  rawHead,
  rawRequest,
} from "../helpers/socket-http.ts";

/** The methods the document has on /plants, as Allow lists them. */
const PLANTS_ALLOW = documentedPaths()
  .find((p) => p.template === "/plants")
  ?.methods.join(", ");

const LIMIT = 65_536;

// The same suite against one process and against PLANTSTORE_WORKERS=2 (a supervisor and two
// processes sharing the port), so the contract on the wire holds either way.
describe.each([1, 2])("with %i server process(es) serving", (workers) => {
  let db: TempDb;
  let server: ServerProcess;
  /** A second connection to the server's file, to check what was stored. */
  let stored: Store;

  beforeAll(async () => {
    // Headers must arrive within 3 s rather than the default 10 s, so that the 408 test below
    // takes 3 s, not 11; every other request's headers arrive at once.
    const headersTimeout = { PLANTSTORE_HEADERS_TIMEOUT_MS: "3000" };
    ({ db, server, stored } = await openServerFixture(
      workers === 1 ? headersTimeout : { ...headersTimeout, PLANTSTORE_WORKERS: String(workers) },
    ));
  });
  afterAll(() => closeServerFixture({ db, server, stored }));

  /** A valid NewPlant JSON text of exactly `bytes` UTF-8 bytes, padded with an unknown field. */
  function paddedPlantJson(id: bigint, name: string, bytes: number): string {
    const empty = `{"id":${id},"name":${JSON.stringify(name)},"pad":""}`;
    const text = `{"id":${id},"name":${JSON.stringify(name)},"pad":"${"x".repeat(bytes - Buffer.byteLength(empty))}"}`;
    expect(Buffer.byteLength(text)).toBe(bytes);
    return text;
  }

  /** `text` as a stream of 8 KiB pieces, which fetch sends with Transfer-Encoding: chunked. */
  function streamOf(text: string): ReadableStream<Uint8Array> {
    const bytes = Buffer.from(text);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 8192) {
          controller.enqueue(new Uint8Array(bytes.subarray(at, at + 8192)));
        }
        controller.close();
      },
    });
  }

  /** `text` as HTTP/1.1 chunks of 8 KiB and the last chunk, one buffer per chunk. */
  function chunksOf(text: string): Buffer[] {
    const bytes = Buffer.from(text);
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 8192) {
      const piece = bytes.subarray(at, at + 8192);
      chunks.push(
        Buffer.concat([
          Buffer.from(`${piece.length.toString(16)}\r\n`),
          piece,
          Buffer.from("\r\n"),
        ]),
      );
    }
    chunks.push(Buffer.from("0\r\n\r\n"));
    return chunks;
  }

  const host = (): string => new URL(server.url).host;

  describe("the body size limit of 65536 bytes", () => {
    const tooLargeMessage = `the request body is larger than ${LIMIT} bytes`;

    test("when a body of 65537 bytes is sent with a Content-Length, then the answer is 413 with the Error body and nothing is stored", async () => {
      const id = uniqueId();
      const answer = await post(server.url, paddedPlantJson(id, "too big", LIMIT + 1));

      expect(expectErrorAnswer(answer, 413).message).toBe(tooLargeMessage);
      expect(await stored.resources.plants.get(id)).toBeUndefined();
    });

    test("when a body of 65537 bytes is streamed by fetch with chunked transfer-encoding, then the answer is 413 with the Error body and nothing is stored", async () => {
      const id = uniqueId();
      const answer = await post(server.url, streamOf(paddedPlantJson(id, "too big", LIMIT + 1)));

      expect(expectErrorAnswer(answer, 413).message).toBe(tooLargeMessage);
      expect(await stored.resources.plants.get(id)).toBeUndefined();
    });

    test("when a body of 65537 bytes is declared in a raw Content-Length, then the answer is 413 with the Error body and nothing is stored", async () => {
      const id = uniqueId();
      const body = paddedPlantJson(id, "too big", LIMIT + 1);
      const answer = await rawRequest(server.url, [
        rawHead(host(), {
          "Content-Type": "application/json",
          "Content-Length": String(LIMIT + 1),
        }),
        body,
      ]);

      expect(expectErrorAnswer(answer, 413).message).toBe(tooLargeMessage);
      expect(await stored.resources.plants.get(id)).toBeUndefined();
    });

    test("when a body of 65537 bytes arrives in raw HTTP chunks, then the answer is 413 with the Error body and nothing is stored", async () => {
      const id = uniqueId();
      const answer = await rawRequest(server.url, [
        rawHead(host(), { "Content-Type": "application/json", "Transfer-Encoding": "chunked" }),
        ...chunksOf(paddedPlantJson(id, "too big", LIMIT + 1)),
      ]);

      expect(expectErrorAnswer(answer, 413).message).toBe(tooLargeMessage);
      expect(await stored.resources.plants.get(id)).toBeUndefined();
    });

    test("when a valid JSON body of exactly 65536 bytes is sent with a Content-Length, then it is accepted (200) and stored", async () => {
      const id = uniqueId();
      const answer = await post(server.url, paddedPlantJson(id, "exactly at the limit", LIMIT));

      expectPlantAnswer(answer, { name: "exactly at the limit" });
      expect(await stored.resources.plants.get(id)).toStrictEqual({
        id,
        name: "exactly at the limit",
      });
    });

    test("when a valid JSON body of exactly 65536 bytes is streamed with chunked transfer-encoding, then it is accepted (200) and stored", async () => {
      const id = uniqueId();
      const answer = await post(
        server.url,
        streamOf(paddedPlantJson(id, "chunked at the limit", LIMIT)),
      );

      expectPlantAnswer(answer, { name: "chunked at the limit" });
      expect(await stored.resources.plants.get(id)).toStrictEqual({
        id,
        name: "chunked at the limit",
      });
    });
  });

  describe("content types", () => {
    test("when the content type is application/json; charset=utf-8, then the plant is created (200) and stored", async () => {
      const id = uniqueId();
      const answer = await post(server.url, plantJson(id, "utf-8 fern"), {
        "content-type": "application/json; charset=utf-8",
      });

      expectPlantAnswer(answer, { name: "utf-8 fern" });
      expect(await stored.resources.plants.get(id)).toStrictEqual({ id, name: "utf-8 fern" });
    });

    test.each([
      ["text/plain", "text/plain"],
      ["application/json; charset=latin1", "latin1"],
    ])(
      "when the content type is %s, then the answer is 415 with the Error body and nothing is stored",
      async (contentType, named) => {
        const id = uniqueId();
        const answer = await post(server.url, plantJson(id, "wrong type"), {
          "content-type": contentType,
        });

        expect(expectErrorAnswer(answer, 415).message).toContain(named);
        expect(await stored.resources.plants.get(id)).toBeUndefined();
      },
    );

    test("when a body is sent with no content type (fetch of bytes), then the answer is 415 with the Error body and nothing is stored", async () => {
      const id = uniqueId();
      // fetch adds no Content-Type for a byte array body.
      const answer = await post(server.url, new TextEncoder().encode(plantJson(id, "untyped")), {});

      expect(expectErrorAnswer(answer, 415).message).toMatch(/content-type/i);
      expect(await stored.resources.plants.get(id)).toBeUndefined();
    });

    test("when a body is sent with no Content-Type header on a raw socket, then the answer is 415 with the Error body and nothing is stored", async () => {
      const id = uniqueId();
      const body = plantJson(id, "untyped raw");
      const answer = await rawRequest(server.url, [
        rawHead(host(), {
          "Content-Length": String(Buffer.byteLength(body)),
          Connection: "close",
        }) + body,
      ]);

      expectErrorAnswer(answer, 415);
      expect(await stored.resources.plants.get(id)).toBeUndefined();
    });
  });

  describe("malformed HTTP on a raw socket", () => {
    test.each([
      ["a request line that is not HTTP", "GARBAGE\r\n\r\n", 400],
      [
        "a Content-Length that is not a number",
        "POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
        400,
      ],
      [
        "both Content-Length and Transfer-Encoding",
        "POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        400,
      ],
      [
        "a header line without a colon",
        "POST /plants HTTP/1.1\r\nHost: x\r\nthis is not a header\r\n\r\n",
        400,
      ],
      [
        "headers over Node's 16 KiB limit",
        `POST /plants HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
        431,
      ],
    ])(
      "when the server receives %s, then it answers %i with the Error body as JSON (not HTML) and closes the connection",
      async (_what, request, status) => {
        const answer = await rawRequest(server.url, [request]);

        expectErrorAnswer(answer, status);
        expect(answer.raw).not.toMatch(/<html|<!doctype/i);
        expect(answer.headers["connection"]).toBe("close");
      },
    );

    test("when a malformed request has been answered, then the server still creates plants on a new connection", async () => {
      await rawRequest(server.url, ["GARBAGE\r\n\r\n"]);
      const id = uniqueId();

      expectPlantAnswer(await post(server.url, plantJson(id, "after garbage")), {
        name: "after garbage",
      });
      expect(await stored.resources.plants.get(id)).toStrictEqual({
        id,
        name: "after garbage",
      });
    });
  });

  describe("a 200 answer on the wire", () => {
    test("when a plant without a tag is created, then the answer is application/json; charset=utf-8 with exactly the name and no tag or id", async () => {
      const id = uniqueId();
      const body = plantJson(id, "Monstera");
      const answer = await rawRequest(server.url, [
        rawHead(host(), {
          "Content-Type": "application/json",
          "Content-Length": String(Buffer.byteLength(body)),
          Connection: "close",
        }) + body,
      ]);

      expectPlantAnswer(answer, { name: "Monstera" });
      expect(answer.raw).toMatch(/^HTTP\/1\.1 200 /);
      expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
      expect(await stored.resources.plants.get(id)).toStrictEqual({ id, name: "Monstera" });
    });

    test("when a plant with a tag and unknown fields is created, then the answer is exactly the name and tag", async () => {
      const id = uniqueId();
      const answer = await post(
        server.url,
        `{"id":${id},"name":"Ficus","tag":"indoor","colour":"green","nested":{"id":1}}`,
      );

      expectPlantAnswer(answer, { name: "Ficus", tag: "indoor" });
      expect(await stored.resources.plants.get(id)).toStrictEqual({
        id,
        name: "Ficus",
        tag: "indoor",
      });
    });
  });

  describe("other non-200 answers over the socket", () => {
    test.each([
      ["no Authorization header", { "content-type": "application/json" }, 401],
      [
        "a token the server does not accept",
        { "content-type": "application/json", authorization: "Bearer not-the-token-0123456789" },
        401,
      ],
    ])(
      "when the request has %s, then the answer is %i with the Error body and nothing is stored",
      async (_what, headers, status) => {
        const id = uniqueId();
        const answer = await fetch(`${server.url}/plants`, {
          method: "POST",
          headers,
          body: plantJson(id, "no entry"),
          signal: AbortSignal.timeout(10_000),
        });

        expectErrorAnswer(
          {
            status: answer.status,
            headers: Object.fromEntries(answer.headers),
            body: await answer.text(),
          },
          status,
        );
        expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer /);
        expect(await stored.resources.plants.get(id)).toBeUndefined();
      },
    );

    test("when the body is not JSON, then the answer is 400 with the Error body and no parser internals", async () => {
      const answer = await post(server.url, '{"id":1,"name":');

      expectErrorAnswer(answer, 400);
    });

    test("when a path is unknown, then the answer is 404 with the Error body", async () => {
      const answer = await fetch(`${server.url}/nowhere`, { signal: AbortSignal.timeout(10_000) });

      expectErrorAnswer(
        {
          status: answer.status,
          headers: Object.fromEntries(answer.headers),
          body: await answer.text(),
        },
        404,
      );
    });
  });

  describe("requests that never become normal routes, on a raw socket", () => {
    /** A complete request with the test token and a JSON body; `requestLine` is sent as given. */
    const rawWithBody = (requestLine: string, body: string, headers: readonly string[]): string =>
      [
        requestLine,
        ...headers,
        `Authorization: ${AUTH.authorization}`,
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
        "",
        body,
      ].join("\r\n");

    test("when the path has bad percent-encoding (POST /pl%ants), then the answer is 400 with the Error body and nothing is stored", async () => {
      const id = uniqueId();
      const answer = await rawRequest(server.url, [
        rawWithBody("POST /pl%ants HTTP/1.1", plantJson(id, "bad escape"), [`Host: ${host()}`]),
      ]);

      expect(expectErrorAnswer(answer, 400).message).toContain("/pl%ants");
      expect(await stored.resources.plants.get(id)).toBeUndefined();
    });

    test("when an HTTP/1.1 request has no Host header, then the answer is 400 with an Error body that names Host, and nothing is stored", async () => {
      const id = uniqueId();
      const answer = await rawRequest(server.url, [
        rawWithBody("POST /plants HTTP/1.1", plantJson(id, "no host"), []),
      ]);

      expect(expectErrorAnswer(answer, 400).message).toContain("Host");
      expect(await stored.resources.plants.get(id)).toBeUndefined();
    });

    test("when an HTTP/1.0 request has no Host header (which 1.0 does not require), then the plant is created (200) and stored", async () => {
      const id = uniqueId();
      const answer = await rawRequest(server.url, [
        rawWithBody("POST /plants HTTP/1.0", plantJson(id, "old client"), []),
      ]);

      expectPlantAnswer(answer, { name: "old client" });
      expect(await stored.resources.plants.get(id)).toStrictEqual({ id, name: "old client" });
    });

    test("when CONNECT /plants is sent, then the answer is 405 with the Allow of /plants and the Error body, and the connection is closed", async () => {
      const answer = await rawRequest(server.url, [
        `CONNECT /plants HTTP/1.1\r\nHost: ${host()}\r\n\r\n`,
      ]);

      expectErrorAnswer(answer, 405);
      expect(answer.headers["allow"]).toBe(PLANTS_ALLOW);
      expect(answer.headers["connection"]).toBe("close");
    });

    test("when CONNECT example.com:443 is sent (a proxy tunnel), then the answer is 404 with the Error body and the connection is closed", async () => {
      const answer = await rawRequest(server.url, [
        "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
      ]);

      expectErrorAnswer(answer, 404);
      expect(answer.headers["allow"]).toBeUndefined();
      expect(answer.headers["connection"]).toBe("close");
    });

    test.each(["PURGE", "LINK"])(
      "when %s /plants is sent with a valid token and body (a method Fastify has no route for), then the answer is 405 with the Allow of /plants and the Error body, and nothing is stored",
      async (method) => {
        const id = uniqueId();
        const answer = await rawRequest(server.url, [
          rawWithBody(`${method} /plants HTTP/1.1`, plantJson(id, `by ${method}`), [
            `Host: ${host()}`,
          ]),
        ]);

        expect(expectErrorAnswer(answer, 405).message).toContain(method);
        expect(answer.headers["allow"]).toBe(PLANTS_ALLOW);
        expect(await stored.resources.plants.get(id)).toBeUndefined();
      },
    );

    test("when the target is in absolute form (POST http://host:port/plants, as proxies send), then the plant is created (200) and stored", async () => {
      const id = uniqueId();
      const answer = await rawRequest(server.url, [
        rawWithBody(`POST ${server.url}/plants HTTP/1.1`, plantJson(id, "via a proxy", "abs"), [
          `Host: ${host()}`,
        ]),
      ]);

      expectPlantAnswer(answer, { name: "via a proxy", tag: "abs" });
      expect(await stored.resources.plants.get(id)).toStrictEqual({
        id,
        name: "via a proxy",
        tag: "abs",
      });
    });

    test.each(["ftp", "FILE", "ws"])(
      "when the target is in absolute form with the scheme %s, then the answer is 400 naming the scheme and nothing is stored",
      async (scheme) => {
        const id = uniqueId();
        const answer = await rawRequest(server.url, [
          rawWithBody(`POST ${scheme}://${host()}/plants HTTP/1.1`, plantJson(id, "not http"), [
            `Host: ${host()}`,
          ]),
        ]);

        expect(expectErrorAnswer(answer, 400).message).toBe(
          `the request target is not valid: its scheme "${scheme.toLowerCase()}" is not http or https`,
        );
        expect(await stored.resources.plants.get(id)).toBeUndefined();
      },
    );

    test("when GET ftp://x/plants/5 arrives without a token, then the answer is 400 naming the scheme, not 405", async () => {
      const answer = await rawRequest(server.url, [
        `GET ftp://x/plants/5 HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`,
      ]);

      expect(expectErrorAnswer(answer, 400).message).toBe(
        'the request target is not valid: its scheme "ftp" is not http or https',
      );
      expect(answer.headers["allow"]).toBeUndefined();
    });

    test("when the target is in absolute form with an unknown path, then the answer is 404 with the Error body and nothing is stored", async () => {
      const id = uniqueId();
      const answer = await rawRequest(server.url, [
        rawWithBody(`POST ${server.url}/nowhere HTTP/1.1`, plantJson(id, "lost"), [
          `Host: ${host()}`,
        ]),
      ]);

      expectErrorAnswer(answer, 404);
      expect(await stored.resources.plants.get(id)).toBeUndefined();
    });
  });

  describe("ambiguous or unusual request heads, on a raw socket", () => {
    const request = (lines: readonly string[], body: string): string =>
      [...lines, `Content-Length: ${Buffer.byteLength(body)}`, "Connection: close", "", body].join(
        "\r\n",
      );
    const base = (): string[] => [
      "POST /plants HTTP/1.1",
      `Host: ${new URL(server.url).host}`,
      "Content-Type: application/json",
    ];
    /** An authorized create that leaves its connection open for what follows. */
    const keepAliveCreate = (id: bigint, name: string): string =>
      request([...base(), `Authorization: ${AUTH.authorization}`], plantJson(id, name)).replace(
        "Connection: close\r\n",
        "",
      );

    test.each([
      ["Authorization", [`Authorization: ${AUTH.authorization}`, "Authorization: Bearer other"]],
      ["Content-Type", [`Authorization: ${AUTH.authorization}`, "Content-Type: text/plain"]],
      ["Host", [`Authorization: ${AUTH.authorization}`, "Host: elsewhere"]],
    ])(
      "when the %s header appears twice, then 400 names it and nothing is stored",
      async (name, extra) => {
        const id = uniqueId();
        const answer = await rawRequest(server.url, [
          request([...base(), ...extra], plantJson(id, "twice")),
        ]);
        expect(expectErrorAnswer(answer, 400).message).toBe(
          `the ${name.toLowerCase()} header appears more than once`,
        );
        expect(await stored.resources.plants.get(id)).toBeUndefined();
      },
    );

    test("when a valid create is followed on the same connection by bytes that are not HTTP, then the create is answered 200 and stored, then 400", async () => {
      const id = uniqueId();
      const valid = keepAliveCreate(id, "first");
      const answers = await rawExchange(server.url, [`${valid}\u0000\u0001\r\n\r\n`], 2);
      expectPlantAnswer(answers[0] ?? fail(), { name: "first" });
      expectErrorAnswer(answers[1] ?? fail(), 400);
      expect(await stored.resources.plants.get(id)).toStrictEqual({ id, name: "first" });
    });

    // An answer already sent is no longer owed: the 400 must not wait for it.
    test("when bytes that are not HTTP follow on a connection whose create was already answered, then 400 comes at once", async () => {
      const valid = keepAliveCreate(uniqueId(), "answered first");
      const answered = async (received: () => string): Promise<void> => {
        // Bounded, so that a test already failing does not keep polling after it.
        const giveUpAt = Date.now() + 5_000;
        while (!received().endsWith("}") && Date.now() < giveUpAt) await sleep(10);
      };
      const answers = await rawExchange(
        server.url,
        [valid, answered, "\u0000\u0001\r\n\r\n"],
        2,
        5_000,
      );
      expectPlantAnswer(answers[0] ?? fail(), { name: "answered first" });
      expectErrorAnswer(answers[1] ?? fail(), 400);
    });

    test("when the Expect header holds something other than 100-continue, then it is ignored and the create succeeds", async () => {
      const id = uniqueId();
      const lines = [...base(), `Authorization: ${AUTH.authorization}`, "Expect: something-else"];
      const answer = await rawRequest(server.url, [request(lines, plantJson(id, "expectant"))]);
      expectPlantAnswer(answer, { name: "expectant" });
      expect(await stored.resources.plants.get(id)).toStrictEqual({ id, name: "expectant" });
    });

    test("when an absolute-form target has dot segments, then it routes like the same origin-form path (404)", async () => {
      const id = uniqueId();
      const lines = [...base(), `Authorization: ${AUTH.authorization}`];
      lines[0] = "POST http://example.test/plants/../plants HTTP/1.1";
      const answer = await rawRequest(server.url, [request(lines, plantJson(id, "dotted"))]);
      expectErrorAnswer(answer, 404);
      expect(await stored.resources.plants.get(id)).toBeUndefined();
    });

    test("when the request headers never finish arriving, then the server answers 408 with the Error body", async () => {
      const answer = await rawRequest(
        server.url,
        [`POST /plants HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n`],
        20_000,
      );
      expectErrorAnswer(answer, 408);
    });
  });

  function fail(): never {
    throw new Error("an expected answer is missing");
  }
});
