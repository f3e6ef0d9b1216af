// The run's own webhook receiver (--webhook-receiver HOST:PORT): it listens there for the
// messages a deployment sends to the endpoint the run registers, keeps each one's headers and
// raw body (at most MAX_MESSAGES of MAX_BODY_BYTES each), and answers 200.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Message {
  headers: Record<string, string>;
  body: string;
}

export interface Receiver {
  /** The URL to register: http://HOST:PORT/<random path>. */
  url: string;
  messages: Message[];
  /** Resolves once a message satisfies `done` or `timeoutMs` has passed. */
  waitFor(done: (messages: readonly Message[]) => boolean, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

const MAX_MESSAGES = 1000;
const MAX_BODY_BYTES = 64 * 1024;

export async function startReceiver(host: string, port: number): Promise<Receiver> {
  const path = `/conformance-${randomBytes(8).toString("hex")}`;
  const messages: Message[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let length = 0;
    request.on("data", (chunk: Buffer) => {
      length += chunk.length;
      if (length <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on("end", () => {
      const known = request.url === path && length <= MAX_BODY_BYTES;
      if (known && messages.length < MAX_MESSAGES) {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
        }
        messages.push({ headers, body: Buffer.concat(chunks).toString("utf8") });
        for (const wake of waiters) wake();
      }
      response.writeHead(known ? 200 : 404).end();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  const hostPart = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${hostPart}:${bound}${path}`,
    messages,
    waitFor(done, timeoutMs) {
      if (done(messages)) return Promise.resolve(true);
      return new Promise((resolve) => {
        const finish = (result: boolean) => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(result);
        };
        const check = () => {
          if (done(messages)) finish(true);
        };
        const timer = setTimeout(() => finish(false), timeoutMs);
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
