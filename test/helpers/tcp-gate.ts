// A TCP relay that holds every connection until release(), so that several clients' first
// exchanges with the server behind it happen at the same moment: servers that start at once
// reach their migration together instead of one after another as their start-up times fall.
import { createConnection, createServer, type Socket } from "node:net";

export interface TcpGate {
  port: number;
  /** Connections accepted and not yet relayed. */
  held(): number;
  /** Relays every held connection, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

export async function startTcpGate(target: { host: string; port: number }): Promise<TcpGate> {
  const sockets = new Set<Socket>();
  const holding: Socket[] = [];
  let released = false;

  const relay = (client: Socket): void => {
    if (client.destroyed) return;
    const upstream = createConnection(target);
    sockets.add(upstream);
    upstream.on("error", () => client.destroy());
    client.once("close", () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  };

  const server = createServer((client) => {
    sockets.add(client);
    client.on("error", () => client.destroy());
    if (released) relay(client);
    else holding.push(client.pause());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the gate has no port");

  return {
    port: address.port,
    held: () => holding.filter((client) => !client.destroyed).length,
    release() {
      released = true;
      for (const client of holding.splice(0)) relay(client);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The same postgres:// URL, sent through the gate instead. */
export function throughGate(url: string, gate: TcpGate): string {
  const parsed = new URL(url);
  parsed.hostname = "127.0.0.1";
  parsed.port = String(gate.port);
  return parsed.toString();
}
