// Slow and greedy clients against a real server with short, configured limits: headers that
// dribble in (slowloris), a body that never finishes, idle keep-alive connections, and more
// connections than the cap. Every loop here is bounded in count and time.

import { connect, type Socket } from "node:net";
import { describe, expect, test } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { sleep, waitUntil } from "../helpers/load.ts";
import { startServer, useServerSuite } from "../helpers/server-process.ts";
import {
  type Answer,
  expectErrorAnswer,
  expectPlantAnswer,
  post,
  rawRequest,
} from "../helpers/socket-http.ts";
import { DATA } from "../helpers/stores.ts";

const db = useServerSuite();

interface SlowSocket {
  socket: Socket;
  received: () => string;
  closed: () => boolean;
}

/** A connection that has sent `head` and stays open; its received bytes are kept. */
async function openSocket(url: string, head: string): Promise<SlowSocket> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  let received = "";
  let closed = false;
  socket.on("data", (data: Buffer) => {
    received += data.toString("latin1");
  });
  socket.on("error", () => undefined);
  socket.on("close", () => {
    closed = true;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve).once("error", reject);
  });
  if (head !== "") socket.write(head);
  return { socket, received: () => received, closed: () => closed };
}

describe("slow and greedy clients", () => {
  test("when 50 connections dribble their headers one line at a time, then a normal client is still served and each slow one gets 408 and is closed after the headers timeout", async () => {
    const server = await startServer({
      databasePath: db.path,
      env: { PLANTSTORE_HEADERS_TIMEOUT_MS: "1500", PLANTSTORE_REQUEST_TIMEOUT_MS: "3000" },
    });
    const host = new URL(server.url).host;
    const slow = await Promise.all(
      Array.from({ length: 50 }, () =>
        openSocket(server.url, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n`),
      ),
    );
    // Each slow client sends one more header line every 200 ms, for 15 s at most.
    let dribbling = true;
    const dribble = (async () => {
      const stopAt = Date.now() + 15_000;
      for (let line = 0; dribbling && Date.now() < stopAt; line++) {
        for (const s of slow) if (!s.closed()) s.socket.write(`X-Slow-${line}: y\r\n`);
        await sleep(200);
      }
    })();
    try {
      const id = uniqueId();
      expectPlantAnswer(await post(server.url, plantJson(id, "served among the slow")), {
        name: "served among the slow",
      });
      await waitUntil(() => slow.every((s) => s.closed()), "every slow connection is closed");
      for (const s of slow) {
        const answer = parseRaw(s.received());
        expectErrorAnswer(answer, 408);
        // Written straight to the socket, yet with the same headers as any answer.
        expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      }

      const store = openSqliteStore(db.path, { data: DATA });
      try {
        expect(await store.resources.plants.get(id)).toStrictEqual({
          id,
          name: "served among the slow",
        });
      } finally {
        await store.close();
      }
    } finally {
      dribbling = false;
      await dribble;
      for (const s of slow) s.socket.destroy();
    }
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  test("when a body arrives more slowly than the request timeout allows, then 408 with the Error body and nothing is stored", async () => {
    const server = await startServer({
      databasePath: db.path,
      env: { PLANTSTORE_HEADERS_TIMEOUT_MS: "1000", PLANTSTORE_REQUEST_TIMEOUT_MS: "2000" },
    });
    const id = uniqueId();
    const body = plantJson(id, "too slow");
    const head =
      `POST /plants HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n` +
      "Authorization: Bearer test-token-0123456789abcdef\r\nContent-Type: application/json\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const steps = [head, ...[...body].flatMap((char) => [wait(300), char])];
    const answer = await rawRequest(server.url, steps, 15_000);
    expectErrorAnswer(answer, 408);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    const store = openSqliteStore(db.path, { data: DATA });
    try {
      expect(await store.resources.plants.get(id)).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  test("when a keep-alive connection stays idle past the keep-alive timeout, then the server closes it", async () => {
    const server = await startServer({
      databasePath: db.path,
      env: { PLANTSTORE_KEEPALIVE_TIMEOUT_MS: "1000" },
    });
    const host = new URL(server.url).host;
    const idle = await openSocket(server.url, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    try {
      await waitUntil(() => idle.received().includes('{"status":"ok"}'), "the probe is answered");
      expect(idle.received()).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
      await waitUntil(() => idle.closed(), "the server closes the idle connection", 10_000);
    } finally {
      idle.socket.destroy();
    }
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  test("when more connections than the cap are opened, then the extra one is closed at once, counted, and a connection works again once one is freed", async () => {
    const server = await startServer({
      databasePath: db.path,
      env: { PLANTSTORE_MAX_CONNECTIONS: "3" },
    });
    const host = new URL(server.url).host;
    const held = await Promise.all(
      Array.from({ length: 3 }, () =>
        openSocket(server.url, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n`),
      ),
    );
    try {
      const extra = await openSocket(server.url, "");
      await waitUntil(() => extra.closed(), "the connection over the cap is closed");
      expect(extra.received()).toBe("");
      for (const h of held) expect(h.closed()).toBe(false);

      held.pop()?.socket.destroy();
      // The server learns of the freed slot asynchronously: retry a few times, bounded.
      let metrics = "";
      for (let tries = 0; metrics === "" && tries < 50; tries++) {
        const answer = await rawRequest(server.url, [
          `GET /metrics HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
        ]).catch(() => undefined);
        if (answer?.status === 200) metrics = answer.body;
        else await sleep(100);
      }
      expect(metrics).toMatch(/^plantstore_connections_dropped_total [1-9]/m);
    } finally {
      for (const h of held) h.socket.destroy();
    }
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });
});

const wait = (ms: number) => async (): Promise<void> => sleep(ms);

/** The one HTTP answer in `raw`, for the Error-body checks. */
function parseRaw(raw: string): Answer {
  const headEnd = raw.indexOf("\r\n\r\n");
  const [statusLine = "", ...lines] = raw.slice(0, headEnd).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body: raw.slice(headEnd + 4) };
}
