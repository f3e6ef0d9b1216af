// A TCP relay in front of the test PostgreSQL server, so one test can take "the database"
// away (refuse and cut every connection), make it go silent (a network that drops every
// packet), or move it (a virtual IP moving to another server), without touching anyone else's.
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  port: number;
  /** Cuts every open connection and stops accepting new ones. */
  stop(): Promise<void>;
  /** Accepts again on the same port. */
  start(): Promise<void>;
  /**
   * Relays nothing more either way, and holds new connections unanswered: the server looks
   * alive to the client (no reset, no refusal) and never answers.
   */
  freeze(): void;
  /** Relays again what was held. */
  thaw(): void;
  /** New connections go to `target` from now on; the open ones are cut. */
  retarget(target: { host: string; port: number }): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | undefined;
}

export async function startTcpProxy(first: { host: string; port: number }): Promise<TcpProxy> {
  let target = first;
  const pairs = new Set<Pair>();
  let server: Server | undefined;
  let port = 0;
  let frozen = false;

  const relay = (pair: Pair): void => {
    const upstream = createConnection(target);
    pair.upstream = upstream;
    upstream.on("error", () => pair.client.destroy());
    upstream.once("close", () => pair.client.destroy());
    pair.client.pipe(upstream).pipe(pair.client);
  };
  const cut = (pair: Pair): void => {
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  const listen = async (): Promise<void> => {
    const next = createServer((client) => {
      const pair: Pair = { client, upstream: undefined };
      pairs.add(pair);
      client.once("close", () => {
        pairs.delete(pair);
        pair.upstream?.destroy();
      });
      client.on("error", () => cut(pair));
      if (frozen) client.pause();
      else relay(pair);
    });
    await new Promise<void>((resolve, reject) => {
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => resolve());
    });
    const address = next.address();
    if (typeof address === "object" && address !== null) port = address.port;
    server = next;
  };

  const stop = async (): Promise<void> => {
    const closing = server;
    server = undefined;
    for (const pair of pairs) cut(pair);
    if (closing !== undefined) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    stop,
    start: listen,
    freeze() {
      frozen = true;
      for (const { client, upstream } of pairs) {
        client.unpipe();
        upstream?.unpipe();
        client.pause();
        upstream?.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) {
        if (pair.upstream === undefined) {
          pair.client.resume();
          relay(pair);
        } else {
          pair.client.pipe(pair.upstream).pipe(pair.client);
        }
      }
    },
    retarget(next) {
      target = next;
      for (const pair of pairs) cut(pair);
    },
    close: stop,
  };
}

/** The host and port a postgres:// URL points at. */
export function hostAndPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || "5432") };
}

/** The same URL, sent through the proxy instead. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const parsed = new URL(url);
  parsed.hostname = "127.0.0.1";
  parsed.port = String(proxy.port);
  return parsed.toString();
}
