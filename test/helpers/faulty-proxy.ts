// An HTTP proxy in front of a server that rewrites its answers, as a misconfigured gateway,
// CDN or proxy would: for proving that the conformance run finds and names each fault.
import { createServer, type IncomingMessage } from "node:http";

export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Rewrite = (
  request: { method: string; url: string },
  answer: ProxiedAnswer,
) => ProxiedAnswer;

// Set by the proxy's own framing; fetch has decoded the body already.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
]);

const bodyOf = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export async function startFaultyProxy(
  target: string,
  rewrite: Rewrite,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (request, response) => {
    const method = request.method ?? "GET";
    const url = request.url ?? "/";
    const body = await bodyOf(request);
    const headers = Object.fromEntries(
      Object.entries(request.headers).flatMap(([name, value]) =>
        name === "host" || HOP_BY_HOP.has(name) || value === undefined
          ? []
          : [[name, Array.isArray(value) ? value.join(", ") : value]],
      ),
    );
    try {
      const upstream = await fetch(`${target}${url}`, {
        method,
        headers,
        ...(body.length === 0 ? {} : { body }),
        redirect: "manual",
      });
      const answer = rewrite(
        { method, url },
        {
          status: upstream.status,
          headers: Object.fromEntries(
            [...upstream.headers].filter(([name]) => !HOP_BY_HOP.has(name)),
          ),
          body: await upstream.text(),
        },
      );
      response.writeHead(answer.status, answer.headers).end(answer.body);
    } catch (error) {
      response.writeHead(502).end(String((error as Error & { cause?: unknown }).cause ?? error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
