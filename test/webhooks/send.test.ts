// One delivery attempt against real receivers on 127.0.0.1: what they receive, and every way an
// attempt ends (an answer, a redirect not followed, a timeout, an endless answer, a refused
// address, an abort).
import type { lookup as dnsLookup } from "node:dns";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newWebhookSecret } from "../../src/store/webhooks.ts";
import {
  closePool,
  closeWebhookConnections,
  lookupRefusing,
  MAX_ANSWER_BYTES,
  sendWebhookAttempt,
} from "../../src/webhooks/send.ts";
import { signatureHeaders } from "../../src/webhooks/signature.ts";

interface Received {
  method: string | undefined;
  headers: IncomingMessage["headers"];
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  await closeWebhookConnections();
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/**
 * A receiver answering with `answer`; what it received, how many connections it saw, and when
 * the n-th of them (from 0) has closed.
 */
async function receiver(answer: (response: ServerResponse) => void) {
  const received: Received[] = [];
  const seen = { connections: 0 };
  const sockets: Socket[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method,
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      answer(response);
    });
  });
  // Idle connections are kept open past any test (the sender's keep-alive follows the server's
  // hint): one that closes was closed by the sender's pool.
  server.keepAliveTimeout = 600_000;
  server.on("connection", (socket: Socket) => {
    seen.connections++;
    sockets.push(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const closed = (n: number) =>
    new Promise<void>((resolve) => {
      const socket = sockets[n];
      if (socket === undefined || socket.closed) resolve();
      else socket.once("close", () => resolve());
    });
  return { url: `http://127.0.0.1:${port}/hook`, port, received, seen, closed };
}

function delivery(url: string, more: { timeoutMs?: number; allowPrivate?: boolean } = {}) {
  const body = '{"id":9007199254740993,"name":"Monstera","tag":"tropical"}';
  const headers = signatureHeaders({
    id: "msg_1",
    timestampSeconds: Math.floor(Date.now() / 1000),
    body,
    secrets: [newWebhookSecret()],
  });
  return {
    url,
    headers,
    body,
    timeoutMs: more.timeoutMs ?? 5_000,
    allowPrivate: more.allowPrivate ?? true,
  };
}

describe("sendWebhookAttempt", () => {
  it("when the receiver answers 200, then it is answered 200 and the receiver got the headers and body exactly", async () => {
    const hook = await receiver((response) => response.end("thanks"));
    const attempt = delivery(hook.url);
    const result = await sendWebhookAttempt(attempt);
    expect(result).toMatchObject({ kind: "answered", status: 200 });
    expect(hook.received).toHaveLength(1);
    const [got] = hook.received;
    expect(got?.method).toBe("POST");
    expect(got?.body).toBe(attempt.body);
    expect(got?.headers).toMatchObject({ ...attempt.headers, "content-type": "application/json" });
  });

  it("when the sender is loaded, then the process's own fetch still sends a Content-Length given to it", async () => {
    const hook = await receiver((response) => response.end("ok"));
    await sendWebhookAttempt(delivery(hook.url));
    const answer = await fetch(hook.url, {
      method: "POST",
      body: "abc",
      headers: { "content-length": "3" },
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("ok");
    const [, fetched] = hook.received;
    expect(fetched?.headers["content-length"]).toBe("3");
    expect(fetched?.headers["transfer-encoding"]).toBeUndefined();
    expect(fetched?.body).toBe("abc");
  });

  it("when attempts follow one another, then they reuse pooled connections", async () => {
    const hook = await receiver((response) => response.end());
    for (let i = 0; i < 10; i++) {
      expect(await sendWebhookAttempt(delivery(hook.url))).toMatchObject({ status: 200 });
    }
    // Kept alive and pooled (at most 4 to an origin), not one connection an attempt.
    expect(hook.seen.connections).toBeLessThanOrEqual(4);
  });

  it("when the receiver redirects, then the 302 is the answer and the other server is never asked", async () => {
    const elsewhere = await receiver((response) => response.end());
    const hook = await receiver((response) => {
      response.writeHead(302, { location: elsewhere.url }).end();
    });
    expect(await sendWebhookAttempt(delivery(hook.url))).toMatchObject({
      kind: "answered",
      status: 302,
    });
    expect(elsewhere.seen.connections).toBe(0);
  });

  it("when the receiver never answers, then the attempt fails as timed out", async () => {
    const hook = await receiver(() => {});
    const result = await sendWebhookAttempt(delivery(hook.url, { timeoutMs: 300 }));
    expect(result).toMatchObject({
      kind: "failed",
      error: "timed out after 300 ms",
      timedOut: true,
    });
  });

  it("when the receiver never answers and a stop signal is given but never used, then the attempt still times out", async () => {
    const hook = await receiver(() => {});
    const result = await sendWebhookAttempt({
      ...delivery(hook.url, { timeoutMs: 100 }),
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({
      kind: "failed",
      error: "timed out after 100 ms",
      timedOut: true,
    });
  });

  it("when the answer's body is exactly 64 KiB, then it is read and the connection carries the next attempt; one byte more and the connection is dropped", async () => {
    let size = MAX_ANSWER_BYTES;
    const hook = await receiver((response) => {
      response.writeHead(200, { "content-length": size }).end(Buffer.alloc(size, "x"));
    });
    // One connection in the pool: the next attempt waits for it rather than opening another.
    const attempt = { ...delivery(hook.url), pool: { key: "ep_answers", connections: 1 } };
    expect(await sendWebhookAttempt(attempt)).toMatchObject({ status: 200 });
    expect(await sendWebhookAttempt(attempt)).toMatchObject({ status: 200 });
    expect(hook.seen.connections).toBe(1);
    size = MAX_ANSWER_BYTES + 1;
    expect(await sendWebhookAttempt(attempt)).toMatchObject({ status: 200 });
    expect(await sendWebhookAttempt(attempt)).toMatchObject({ status: 200 });
    expect(hook.seen.connections).toBe(2);
  });

  it("when the answer never ends, then at most 64 KiB is read and the connection is dropped", async () => {
    let written = 0;
    let closed: () => void = () => {};
    const dropped = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const hook = await receiver((response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, "x");
      const trickle = setInterval(() => {
        written += chunk.length;
        response.write(chunk);
      }, 5);
      response.on("close", () => {
        clearInterval(trickle);
        closed();
      });
    });
    const result = await sendWebhookAttempt(delivery(hook.url, { timeoutMs: 20_000 }));
    await dropped;
    expect(result.kind === "failed" || result.status === 200).toBe(true);
    expect(written).toBeLessThan(10 * 1024 * 1024);
  });

  it("when private addresses are not allowed, then 127.0.0.1 is refused and never connected to", async () => {
    const hook = await receiver((response) => response.end());
    const result = await sendWebhookAttempt(delivery(hook.url, { allowPrivate: false }));
    expect(result).toMatchObject({
      kind: "failed",
      error: "refused: the host resolves to 127.0.0.1, a loopback address",
    });
    expect(hook.seen.connections).toBe(0);
  });

  it("when private addresses are not allowed, then a name resolving to loopback is refused at connection", async () => {
    const hook = await receiver((response) => response.end());
    const url = `http://localhost:${hook.port}/hook`;
    const result = await sendWebhookAttempt(delivery(url, { allowPrivate: false }));
    expect(result).toMatchObject({ kind: "failed" });
    expect(result.kind === "failed" && result.error).toMatch(
      /^refused: the host resolves to .*loopback/,
    );
    expect(hook.seen.connections).toBe(0);
  });

  it("when the signal aborts while the receiver holds its answer, then the attempt ends as aborted, not timed out", async () => {
    const stop = new AbortController();
    const hook = await receiver(() => stop.abort());
    const result = await sendWebhookAttempt({
      ...delivery(hook.url, { timeoutMs: 600_000 }),
      signal: stop.signal,
    });
    expect(result).toMatchObject({
      kind: "failed",
      error: "aborted: the sender is stopping",
      timedOut: false,
    });
  });

  it("when the receiver answers after the clock has moved on, then the attempt's duration is the time from sending to the answer", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    // The clock does not start at 0: the duration is a difference, not a reading.
    vi.advanceTimersByTime(10_000);
    try {
      const hook = await receiver((response) => {
        vi.advanceTimersByTime(1234);
        response.end();
      });
      const result = await sendWebhookAttempt(delivery(hook.url));
      expect(result).toMatchObject({ kind: "answered", status: 200, durationMs: 1234 });
    } finally {
      vi.useRealTimers();
    }
  });

  it("when nothing listens, then the attempt fails as connection refused", async () => {
    const hook = await receiver(() => {});
    const [server] = servers.splice(0);
    await new Promise((resolve) => server?.close(resolve));
    const result = await sendWebhookAttempt(delivery(hook.url));
    expect(result).toMatchObject({ kind: "failed", error: "connection refused" });
  });

  it.each([
    ["closes", "the connection closed before an answer"],
    ["resets", "connection reset"],
  ] as const)(
    "when the receiver %s the connection instead of answering, then the attempt fails as %s",
    async (how, error) => {
      const hook = await receiver((response) => {
        if (how === "closes") response.socket?.destroy();
        else response.socket?.resetAndDestroy();
      });
      const result = await sendWebhookAttempt(delivery(hook.url));
      expect(result).toMatchObject({ kind: "failed", error, timedOut: false });
    },
  );

  it("when the receiver's headers are too long, then the attempt fails with the error's code and message", async () => {
    const hook = await receiver((response) => {
      response.writeHead(200, { "x-padding": "x".repeat(20 * 1024) }).end();
    });
    const result = await sendWebhookAttempt(delivery(hook.url));
    expect(result).toMatchObject({
      kind: "failed",
      error: "UND_ERR_HEADERS_OVERFLOW: Headers Overflow Error",
      timedOut: false,
    });
  });

  it("when the answer is not HTTP, then the attempt fails with the parser's message (it has no code)", async () => {
    const garbage = createTcpServer((socket) => {
      socket.resume();
      socket.end("garbage\r\n\r\n");
    });
    await new Promise<void>((resolve) => garbage.listen(0, "127.0.0.1", resolve));
    const { port } = garbage.address() as AddressInfo;
    const result = await sendWebhookAttempt(delivery(`http://127.0.0.1:${port}/hook`));
    await new Promise((resolve) => garbage.close(resolve));
    expect(result).toMatchObject({ kind: "failed", timedOut: false });
    expect(result.kind === "failed" && result.error).toMatch(
      /^Response does not match the HTTP\/1\.1 protocol/,
    );
  });
});

describe("the connection pools", () => {
  const pooled = (url: string, key: string) => ({
    ...delivery(url),
    pool: { key, connections: 1 },
  });

  it("when one pool is closed, then its connection closes and its next attempt opens another, while other pools keep theirs", async () => {
    const hook = await receiver((response) => response.end());
    expect(await sendWebhookAttempt(pooled(hook.url, "ep_a"))).toMatchObject({ status: 200 });
    expect(await sendWebhookAttempt(pooled(hook.url, "ep_b"))).toMatchObject({ status: 200 });
    expect(hook.seen.connections).toBe(2);
    await closePool("ep_a");
    expect(await sendWebhookAttempt(pooled(hook.url, "ep_a"))).toMatchObject({ status: 200 });
    expect(await sendWebhookAttempt(pooled(hook.url, "ep_b"))).toMatchObject({ status: 200 });
    expect(hook.seen.connections).toBe(3);
    await hook.closed(0);
  }, 5_000);

  it("when every pool is closed, then every connection closes and the next attempt opens another", async () => {
    const hook = await receiver((response) => response.end());
    expect(await sendWebhookAttempt(pooled(hook.url, "ep_c"))).toMatchObject({ status: 200 });
    expect(await sendWebhookAttempt(delivery(hook.url))).toMatchObject({ status: 200 });
    await closeWebhookConnections();
    expect(await sendWebhookAttempt(pooled(hook.url, "ep_c"))).toMatchObject({ status: 200 });
    expect(hook.seen.connections).toBe(3);
    await Promise.all([hook.closed(0), hook.closed(1)]);
  }, 5_000);
});

describe("lookupRefusing", () => {
  /** Connects to `localhost:port` through the lookup: the address reached, or the error. */
  const reach = (port: number, autoSelectFamily: boolean, refuse: string | undefined) =>
    new Promise<string>((resolve) => {
      const lookup = lookupRefusing(() => refuse);
      const socket = connect({ host: "localhost", port, lookup, autoSelectFamily });
      socket.once("connect", () => {
        resolve(socket.remoteAddress ?? "");
        socket.destroy();
      });
      socket.once("error", (error) => resolve(error.message));
    });

  it("when the name does not resolve, then the resolver's error is the lookup's, and nothing is refused", async () => {
    const notFound = Object.assign(new Error("getaddrinfo ENOTFOUND nowhere"), {
      code: "ENOTFOUND",
    });
    const refused = vi.fn(() => "never asked");
    const failing = ((_name: string, _options: object, callback: (error: Error) => void) =>
      callback(notFound)) as unknown as typeof dnsLookup;
    const lookup = lookupRefusing(refused, failing);

    const got = await new Promise<unknown[]>((resolve) =>
      lookup("nowhere", { family: 0 }, (...args: unknown[]) => resolve(args)),
    );

    expect(got[0]).toBe(notFound);
    expect(refused).not.toHaveBeenCalled();
  });

  // The refusing path is covered above; here, that an allowed name connects whichever way net
  // asks (one address, or all of them when it races families).
  it.each([false, true])(
    "when nothing is refused (autoSelectFamily %s), then the name connects",
    async (autoSelectFamily) => {
      const hook = await receiver((response) => response.end());
      // Where localhost is ::1 first, net tries it (nothing listens there) and says so.
      expect(await reach(hook.port, autoSelectFamily, undefined)).toMatch(
        /^127\.0\.0\.1$|ECONNREFUSED ::1/,
      );
      const connections = hook.seen.connections;
      expect(await reach(hook.port, autoSelectFamily, "no")).toBe("no");
      expect(hook.seen.connections).toBe(connections);
    },
  );
});
