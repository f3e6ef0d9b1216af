// A webhook receiver on 127.0.0.1 for the delivery suites: it records every request (headers
// and raw body) and answers as the test says, hanging or trickling included.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: Record<string, string>;
  body: string;
}

/** How to answer the n-th request (from 1): a status, or a hand on the response itself. */
export type Answering = (n: number, response: ServerResponse) => number | "handled";

export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function startReceiver(answering: Answering = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string") headers[name] = value;
      }
      received.push({ headers, body: Buffer.concat(chunks).toString("utf8") });
      const answer = answering(received.length, response);
      if (answer !== "handled") response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `done` holds, or fails after `timeoutMs` with what `describe` says. */
export async function eventually(
  done: () => boolean,
  timeoutMs: number,
  describe: () => string,
): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error(`not within ${timeoutMs} ms: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
