// Bodies a client sends where none is read, against a real server: on an operation that takes
// none, on an unknown path, without a token, with `Expect: 100-continue`, and larger than the
// limit from a client that writes it all before reading. Each answer comes, and the server
// reads at most a bounded amount of what follows before it closes the connection. Every wait
// is bounded; nothing asserts a duration.

import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BODY_LIMIT_BYTES } from "../../src/app.ts";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import { AUTH, plantJson, uniqueId } from "../helpers/app.ts";
import {
  killLeftoverServers,
  makeTempDb,
  type ServerProcess,
  startServer,
} from "../helpers/server-process.ts";
import { expectErrorAnswer, rawRequest } from "../helpers/socket-http.ts";
import { DATA } from "../helpers/stores.ts";

// One server for the file: every test here leaves it as it found it.
const db = makeTempDb();
let server: ServerProcess;
const store = openSqliteStore(db.path, { data: DATA });
beforeAll(async () => {
  server = await startServer({ databasePath: db.path });
});
afterAll(async () => {
  await store.close();
  await killLeftoverServers();
  db.remove();
});

// Far more than the server reads after an answer (4 MiB, src/http/connections.ts) plus what
// the two kernels' socket buffers hold: a server that reads on and on takes it all.
const ENDLESS_BYTES = 64 * 1024 * 1024;

interface Flooded {
  /** The answer's head and body, as far as they came. */
  received: string;
  /** Body bytes the server took before the connection closed (or the test stopped writing). */
  written: number;
  closed: boolean;
}

/**
 * Sends `head` and then body bytes as fast as the connection takes them, up to ENDLESS_BYTES,
 * reading whatever comes back; resolves once the connection closes or 20 s pass.
 */
function flood(url: string, head: string): Promise<Flooded> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = "";
    let written = 0;
    let closed = false;
    const chunk = Buffer.alloc(64 * 1024, "x");
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ received, written, closed });
    };
    const timer = setTimeout(finish, 20_000);
    socket.on("data", (data: Buffer) => {
      received += data.toString("latin1");
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      closed = true;
      finish();
    });
    // A chunk a turn, so that the answer is read as soon as it comes: a reset once the server
    // has read enough may otherwise discard an answer this side has not read yet.
    const pump = () => {
      if (socket.destroyed || written >= ENDLESS_BYTES) return;
      written += chunk.length;
      if (socket.write(chunk)) setImmediate(pump);
      else socket.once("drain", pump);
    };
    socket.on("connect", () => {
      socket.write(head);
      pump();
    });
  });
}

const statusOf = (received: string): number =>
  Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? Number.NaN);

describe("a body where none is read", () => {
  test.each([
    ["GET /plants/1", "a read, without a token", 400],
    ["DELETE /plants/1", "a delete, without a token", 400],
    ["HEAD /plants/1", "a HEAD, without a token", 400],
    ["GET /healthz", "the liveness probe", 400],
    ["GET /nowhere", "an unknown path", 404],
  ])(
    "when %s (%s) comes with an endless body, then it is answered %s and the connection closes after a bounded read",
    async (request, _what, status) => {
      const host = new URL(server.url).host;
      const { received, written, closed } = await flood(
        server.url,
        `${request} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 100000000000\r\n\r\n`,
      );
      expect(statusOf(received), received.slice(0, 300)).toBe(status);
      expect(received).toMatch(/\r\nconnection: close\r\n/i);
      expect(closed).toBe(true);
      expect(written).toBeLessThan(ENDLESS_BYTES);
    },
  );

  test("when a chunked body comes on GET without a token, then 400 and the connection closes after a bounded read", async () => {
    const host = new URL(server.url).host;
    const { received, written, closed } = await flood(
      server.url,
      `GET /plants/1 HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n40000000\r\n`,
    );
    expect(statusOf(received)).toBe(400);
    expect(closed).toBe(true);
    expect(written).toBeLessThan(ENDLESS_BYTES);
  });

  test("when a GET with a token carries a small body, then 400 says the operation takes none", async () => {
    const host = new URL(server.url).host;
    const answer = await rawRequest(server.url, [
      `GET /plants/1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    ]);
    expect(expectErrorAnswer(answer, 400).message).toBe(
      "a request body is not accepted: this operation takes none",
    );
  });
});

describe("Expect: 100-continue", () => {
  const continued = (received: string) => received.startsWith("HTTP/1.1 100 Continue");

  test("when a POST without a token asks to continue, then 401 comes without a 100", async () => {
    const host = new URL(server.url).host;
    const answer = await rawRequest(server.url, [
      `POST /plants HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 60000\r\nExpect: 100-continue\r\n\r\n`,
    ]);
    expect(continued(answer.raw), answer.raw.slice(0, 200)).toBe(false);
    expectErrorAnswer(answer, 401);
  });

  test.each([
    ["/nowhere", 404],
    ["/plants/1", 405],
  ])("when a POST to %s asks to continue, then %s comes without a 100", async (path, status) => {
    const host = new URL(server.url).host;
    const answer = await rawRequest(server.url, [
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: 60000\r\nExpect: 100-continue\r\n\r\n`,
    ]);
    expect(answer.status).toBe(status);
    expect(answer.raw.startsWith("HTTP/1.1 100")).toBe(false);
  });

  test("when a POST with a token declares more than the limit and asks to continue, then 413 comes without a 100", async () => {
    const host = new URL(server.url).host;
    const answer = await rawRequest(server.url, [
      `POST /plants HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${BODY_LIMIT_BYTES + 1}\r\nExpect: 100-continue\r\n\r\n`,
    ]);
    expectErrorAnswer(answer, 413);
    expect(answer.raw.startsWith("HTTP/1.1 100")).toBe(false);
  });

  test("when a POST with a token asks to continue, then 100 comes, and once the body follows, 200 and it is stored", async () => {
    const host = new URL(server.url).host;
    const id = uniqueId();
    const body = plantJson(id, "continued");
    let sawContinue = false;
    const answer = await rawRequest(server.url, [
      `POST /plants HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
      async (received) => {
        for (let i = 0; i < 100 && !received().startsWith("HTTP/1.1 100 Continue"); i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        sawContinue = received().startsWith("HTTP/1.1 100 Continue");
      },
      body,
    ]);
    expect(sawContinue).toBe(true);
    expect(answer.status).toBe(200);
    expect(await store.resources.plants.get(id)).toEqual({ id, name: "continued" });
  });
});

describe("an answer that closes the connection early", () => {
  test("when a client writes a 2 MB POST before it reads, a piece at a time, then it reads the 413, not a reset", async () => {
    const host = new URL(server.url).host;
    const size = 2 * 1024 * 1024;
    const { hostname, port } = new URL(server.url);
    const received = await new Promise<string>((resolve) => {
      const socket = connect({ host: hostname, port: Number(port) });
      let data = "";
      socket.on("data", (chunk: Buffer) => {
        data += chunk.toString("latin1");
      });
      socket.on("error", (error) => resolve(`error: ${error.message}; got: ${data}`));
      socket.on("end", () => resolve(data));
      socket.on("connect", () => {
        socket.write(
          `POST /plants HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
        );
        // Still writing well after the server has answered, as a slow uplink would.
        void (async () => {
          for (let sent = 0; sent < size && !socket.destroyed; sent += 64 * 1024) {
            socket.write(Buffer.alloc(64 * 1024, "x"));
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        })();
      });
    });
    expect(statusOf(received), received.slice(0, 200)).toBe(413);
  });
});
