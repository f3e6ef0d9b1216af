// Clients that hold no token and try to stall, exhaust or confuse the server, each against a
// real server with small, configured limits: a pathological Content-Type, readers that never
// read, half-open connections, many connections from one address, a head with thousands of
// lines, pipelined requests followed by garbage, and an unknown method. Every wait here is
// bounded; nothing asserts a duration.

import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { afterAll, describe, expect, test } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import { AUTH, plantJson, uniqueId } from "../helpers/app.ts";
import { documentedPaths } from "../helpers/document.ts";
import { sleep, waitUntil } from "../helpers/load.ts";
import { type ServerProcess, startServer, useServerSuite } from "../helpers/server-process.ts";
import {
  expectErrorAnswer,
  expectPlantAnswer,
  post,
  type RawAnswer,
  rawExchange,
  rawRequest,
} from "../helpers/socket-http.ts";
import { DATA } from "../helpers/stores.ts";

/** The methods the document has on /plants, as Allow lists them. */
const PLANTS_ALLOW = documentedPaths()
  .find((p) => p.template === "/plants")
  ?.methods.join(", ");

const db = useServerSuite();
const store = openSqliteStore(db.path, { data: DATA });
afterAll(() => store.close());

interface HeldSocket {
  socket: Socket;
  received: () => string;
  /** The server has closed its side (FIN) or the connection is gone. */
  ended: () => boolean;
}

/**
 * A connection that has sent `bytes` and then neither reads (when `reading` is false) nor
 * closes its side when the server closes its own (allowHalfOpen).
 */
async function hold(url: string, bytes: string, reading = true): Promise<HeldSocket> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  let received = "";
  let ended = false;
  socket.on("data", (data: Buffer) => {
    received += data.toString("latin1");
  });
  if (!reading) socket.pause();
  socket.on("error", () => undefined);
  for (const event of ["end", "close"]) {
    socket.on(event, () => {
      ended = true;
    });
  }
  await new Promise<void>((resolve, reject) =>
    socket.once("connect", resolve).once("error", reject),
  );
  if (bytes !== "") socket.write(bytes);
  return { socket, received: () => received, ended: () => ended };
}

/**
 * The answer to `request` on a fresh connection, retried until the server takes the
 * connection (it learns of a freed slot asynchronously) or 15 s pass.
 */
async function onceServed(url: string, request: string): Promise<RawAnswer> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answer = await rawRequest(url, [request], 2000).catch(() => undefined);
    if (answer !== undefined) return answer;
    if (Date.now() > deadline) throw new Error("no new client was served within 15 s");
    await sleep(100);
  }
}

/** Resolves once a fresh connection gets a 200 from /healthz: the server has a slot again. */
async function servedAgain(url: string): Promise<void> {
  const host = new URL(url).host;
  const answer = await onceServed(url, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  expect(answer.status).toBe(200);
}

const start = (env: Record<string, string>): Promise<ServerProcess> =>
  startServer({ databasePath: db.path, env });

describe("a Content-Type made to backtrack", () => {
  // "a/b" then k groups of ";  " and one "@": the pattern main used took ~3× longer per group.
  const pathological = (groups: number) => `a/b${";  ".repeat(groups)}@`;

  test("when a client without a token sends it with 25 and with 4000 groups, then each gets 401 and a create beside them is served", async () => {
    const server = await start({});
    try {
      const host = new URL(server.url).host;
      const id = uniqueId();
      const unauthenticated = (groups: number) =>
        rawRequest(server.url, [
          `POST /plants HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${pathological(groups)}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        ]);
      const [short, long, create] = await Promise.all([
        unauthenticated(25),
        unauthenticated(4000),
        post(server.url, plantJson(id, "beside the attack")),
      ]);
      expectErrorAnswer(short, 401);
      expectErrorAnswer(long, 401);
      expectPlantAnswer(create, { name: "beside the attack" });
    } finally {
      await server.stop();
    }
  });

  test("when a client with a token sends it, then 415 names the Content-Type and nothing is stored", async () => {
    const server = await start({});
    try {
      for (const groups of [25, 4000]) {
        const id = uniqueId();
        const answer = await post(server.url, plantJson(id, "typed badly"), {
          "content-type": pathological(groups),
        });
        expect(expectErrorAnswer(answer, 415).message).toMatch(/Content-Type|content type/);
        expect(await store.resources.plants.get(id)).toBeUndefined();
      }
    } finally {
      await server.stop();
    }
  });
});

describe("connections that hold a slot", () => {
  test("when every slot is taken by clients that pipeline the docs bundle and never read, then they are dropped after the send timeout and others are served", async () => {
    const server = await start({
      PLANTSTORE_MAX_CONNECTIONS: "3",
      PLANTSTORE_SEND_TIMEOUT_MS: "1000",
    });
    const host = new URL(server.url).host;
    const bundle = `GET /docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    // More than the kernel's buffers on loopback hold, so the server is left with a backlog.
    const readers = await Promise.all(
      Array.from({ length: 3 }, () => hold(server.url, bundle.repeat(40), false)),
    );
    try {
      await servedAgain(server.url);
    } finally {
      for (const reader of readers) reader.socket.destroy();
      await server.stop();
    }
  });

  test("when 150 clients each pipeline the docs bundle four times and never read, then the server's memory grows by less than 150 MB", async () => {
    const server = await start({ PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS: "0" });
    const host = new URL(server.url).host;
    const rss = () => {
      const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) * 1024;
    };
    const before = rss();
    const bundle = `GET /docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    const readers = await Promise.all(
      Array.from({ length: 150 }, () => hold(server.url, bundle.repeat(4), false)),
    );
    try {
      let peak = before;
      for (let i = 0; i < 20; i++) {
        await sleep(100);
        peak = Math.max(peak, rss());
      }
      // main copied the 1.7 MB bundle into every answer it could not finish sending: 861 MB.
      expect(peak - before).toBeLessThan(150 * 1024 * 1024);
    } finally {
      for (const reader of readers) reader.socket.destroy();
      await server.stop();
    }
  });

  test("when every slot is taken by clients that send a partial head and ignore the server's FIN, then they are destroyed after the close timeout and others are served", async () => {
    const server = await start({
      PLANTSTORE_MAX_CONNECTIONS: "3",
      PLANTSTORE_HEADERS_TIMEOUT_MS: "1000",
      PLANTSTORE_REQUEST_TIMEOUT_MS: "1000",
      PLANTSTORE_CLOSE_TIMEOUT_MS: "500",
    });
    const host = new URL(server.url).host;
    const stalled = await Promise.all([
      hold(server.url, ""),
      hold(server.url, "GET /healthz HTTP/1.1\r\n"),
      hold(server.url, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nX-Slow: `),
    ]);
    try {
      await waitUntil(() => stalled.every((held) => held.ended()), "every slow head gets its FIN");
      // Each was told why; and only if the server destroys them does a slot come free.
      for (const held of stalled) expect(held.received()).toMatch(/^HTTP\/1\.1 408 /);
      await servedAgain(server.url);
    } finally {
      for (const held of stalled) held.socket.destroy();
      await server.stop();
    }
  });

  test("when one address opens more connections than its cap, then the extra one is closed at once and counted, and another is served once one is freed", async () => {
    const server = await start({ PLANTSTORE_MAX_CONNECTIONS_PER_ADDRESS: "3" });
    const host = new URL(server.url).host;
    const held = await Promise.all(
      Array.from({ length: 3 }, () =>
        hold(server.url, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n`),
      ),
    );
    try {
      const extra = await hold(server.url, "");
      await waitUntil(() => extra.ended(), "the connection over the address's cap is closed");
      expect(extra.received()).toBe("");
      for (const h of held) expect(h.ended()).toBe(false);
      held.pop()?.socket.destroy();
      await servedAgain(server.url);
      held.pop()?.socket.destroy();
      const metrics = await onceServed(
        server.url,
        `GET /metrics HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(metrics.body).toMatch(/^plantstore_connections_dropped_total [1-9]/m);
    } finally {
      for (const h of held) h.socket.destroy();
      await server.stop();
    }
  });
});

describe("heads and pipelines that confuse", () => {
  const head = (host: string, lines: readonly string[]) =>
    `POST /plants HTTP/1.1\r\nHost: ${host}\r\n${lines.map((l) => `${l}\r\n`).join("")}`;

  test.each([
    [150, 400],
    [2000, 431],
  ])(
    "when a second Authorization follows %i other header lines, then the answer is %i and nothing is stored",
    async (fillers, status) => {
      const server = await start({});
      try {
        const host = new URL(server.url).host;
        const id = uniqueId();
        const body = plantJson(id, "smuggled");
        const lines = [
          `Authorization: ${AUTH.authorization}`,
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(body)}`,
          ...Array.from({ length: fillers }, (_, i) => `x${i}: 1`),
          "Authorization: Bearer another-token-0123456789",
          "Connection: close",
        ];
        const answer = await rawRequest(server.url, [`${head(host, lines)}\r\n${body}`]);
        expectErrorAnswer(answer, status);
        expect(await store.resources.plants.get(id)).toBeUndefined();
      } finally {
        await server.stop();
      }
    },
  );

  test("when 4 creates are pipelined and followed by bytes that are not HTTP, then all 4 are answered 200 and stored, and then 400", async () => {
    const server = await start({});
    try {
      const host = new URL(server.url).host;
      const ids = [uniqueId(), uniqueId(), uniqueId(), uniqueId()];
      const creates = ids.map((id) => {
        const body = plantJson(id, `piped ${id}`);
        return `${head(host, [`Authorization: ${AUTH.authorization}`, "Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`])}\r\n${body}`;
      });
      const answers = await rawExchange(
        server.url,
        [`${creates.join("")}\u0000\u0001garbage\r\n\r\n`],
        5,
      );
      for (const [i, id] of ids.entries()) {
        expectPlantAnswer(answers[i] ?? fail(), { name: `piped ${id}` });
        expect(await store.resources.plants.get(id)).toStrictEqual({ id, name: `piped ${id}` });
      }
      expectErrorAnswer(answers[4] ?? fail(), 400);
    } finally {
      await server.stop();
    }
  });

  test("when the QUERY method is used, then /plants answers 405 with its Allow and an unknown path 404", async () => {
    const server = await start({});
    try {
      const host = new URL(server.url).host;
      const onPlants = await rawRequest(server.url, [
        `QUERY /plants HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ]);
      expect(expectErrorAnswer(onPlants, 405).message).toMatch(/^QUERY is not allowed/);
      expect(onPlants.headers["allow"]).toBe(PLANTS_ALLOW);
      const elsewhere = await rawRequest(server.url, [
        `QUERY /nowhere HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ]);
      expectErrorAnswer(elsewhere, 404);
    } finally {
      await server.stop();
    }
  });
});

function fail(): never {
  throw new Error("an expected answer is missing");
}
