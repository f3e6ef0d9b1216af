// A deployment whose webhooks are not what its document says, made from a healthy server: an
// HTTP proxy in front of it that registers every webhook endpoint at a relay of its own, and
// the relay, which hands each message on to the endpoint's real URL after `alter` has changed
// it (signed again with the secret `alter` gives, or with the endpoint's own).
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface RelayedMessage {
  body: string;
  /** The secret to sign the relayed message with: the endpoint's own, or another. */
  secret: string;
  /** The event the relayed message names (webhook-event): the one it was sent as, by default. */
  event?: string;
}

/** How the relay changes a message; `secret` is the endpoint's. */
export type Alter = (body: string, secret: string, event: string) => RelayedMessage;

const read = async (stream: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};

export async function startWebhookRelay(
  serverUrl: string,
  registryPath: string,
  alter: Alter,
): Promise<{ url: string; close(): Promise<void> }> {
  // Relay path → where the run asked messages to go, and the secret it was given.
  const endpoints = new Map<string, { target: string; secret: string }>();
  let relayBase = "";
  const relay = createServer(async (request, response) => {
    const body = await read(request);
    const endpoint = endpoints.get(request.url ?? "");
    if (endpoint === undefined) return void response.writeHead(404).end();
    const event = String(request.headers["webhook-event"]);
    const altered = alter(body, endpoint.secret, event);
    const id = String(request.headers["webhook-id"]);
    const signed = new Webhook(altered.secret).sign(id, new Date(), altered.body);
    const sent = await fetch(endpoint.target, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": signed,
        "webhook-event": altered.event ?? event,
      },
      body: altered.body,
    }).catch(() => undefined);
    response.writeHead(sent?.status ?? 502).end();
  });
  const proxy = createServer(async (request, response) => {
    let body = await read(request);
    const registering = request.method === "POST" && request.url === registryPath;
    const path = `/relay-${endpoints.size}`;
    let target = "";
    if (registering) {
      const asked = JSON.parse(body) as { url: string };
      target = asked.url;
      body = JSON.stringify({ ...asked, url: `${relayBase}${path}` });
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string" && !["host", "content-length", "connection"].includes(name)) {
        headers[name] = value;
      }
    }
    const upstream = await fetch(`${serverUrl}${request.url}`, {
      method: request.method ?? "GET",
      headers,
      ...(body === "" ? {} : { body }),
      redirect: "manual",
    });
    let answer = await upstream.text();
    if (registering && upstream.status < 300) {
      const made = JSON.parse(answer) as { secret: string; url: string };
      endpoints.set(path, { target, secret: made.secret });
      answer = JSON.stringify({ ...made, url: target });
    }
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (
        !["content-length", "transfer-encoding", "content-encoding", "connection"].includes(name)
      ) {
        out[name] = value;
      }
    });
    response.writeHead(upstream.status, out).end(answer);
  });
  const listen = async (server: ReturnType<typeof createServer>) => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  relayBase = await listen(relay);
  const url = await listen(proxy);
  const close = (server: ReturnType<typeof createServer>) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, close: async () => void (await Promise.all([close(proxy), close(relay)])) };
}
