// Deadlines and caps for every connection, for the phases Node's own timeouts do not cover:
// an answer the client does not take (a slow or stalled reader), a connection the server has
// closed its side of but the client has not (half-open), and one address holding many slots.
// A sweep looks at each open connection about once a second, so no request pays for this.
// It also knows the answers each connection is still owed: a refusal written straight to the
// socket (malformed HTTP after pipelined requests) comes after every one of them instead of
// cutting them off, and a pipelined request waits for the ones before it (inOrder).
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { isIPv6 } from "node:net";
import type { Duplex } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";

export interface ConnectionLimits {
  /** An answer the client has not taken in full within this is abandoned: the connection is destroyed. */
  sendTimeoutMs: number;
  /** A connection whose server side is closed is destroyed when the client has not closed within this. */
  closeTimeoutMs: number;
  /** Open connections one client address may hold (IPv6 by /64); 0 for no cap. */
  maxPerAddress: number;
}

export interface ConnectionGuard {
  /**
   * Writes `write`'s bytes once every request already received on the socket has been
   * answered, then the connection closes. For answers that are not a request's own.
   */
  afterPendingAnswers(socket: Duplex, write: () => void): void;
  /**
   * Calls `done` once the request may go on: a request pipelined behind others on its
   * connection waits until they are answered, unless it and every one of them is safe (RFC 9112
   * §9.3.2), so that it sees what they wrote.
   */
  inOrder(request: FastifyRequest, reply: FastifyReply, done: () => void): void;
  /**
   * For an answer sent before its request's body was read (refused, or a body nobody asked
   * for): the connection closes after it, and what the client still sends is read and dropped
   * for a bounded time and number of bytes first, so that a client still writing gets the
   * answer rather than a reset.
   */
  closeAfter(reply: FastifyReply): void;
  /** Stops the sweep. */
  close(): void;
}

/**
 * Bytes read and dropped after an answer that closes its connection early, at most: checked
 * every LINGER_CHECK_MS, so a fast client may send what the loopback carries meanwhile too.
 */
export const LINGER_BYTES = 4 * 1024 * 1024;
const LINGER_CHECK_MS = 10;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

interface Tracked {
  address: string;
  /**
   * Answers to requests received on this connection that are not done yet, oldest first. An
   * array, not a Set: adding to and deleting from a Set that has lived long makes V8 rebuild
   * its table in the old generation, on every request of a kept-alive connection.
   */
  pending: ServerResponse[];
  /** Since when the socket has had bytes the client has not taken, or undefined. */
  backloggedSince: number | undefined;
  /** Since when the server's side has been closed while the client's is open, or undefined. */
  endedSince: number | undefined;
}

const TRACKED = Symbol("plantstore connection");
type GuardedSocket = Socket & { [TRACKED]?: Tracked };

export function guardConnections(
  server: Server,
  limits: ConnectionLimits,
  onDropped: () => void,
): ConnectionGuard {
  const open = new Set<GuardedSocket>();
  server.on("connection", admitter(open, limits.maxPerAddress, onDropped));
  // Before Fastify's own listener, so that a request's hooks find it among its connection's.
  server.prependListener("request", oweAnswer);
  const sweep = setInterval(
    () => sweepConnections(open, limits, Date.now()),
    Math.min(1000, limits.sendTimeoutMs / 4, limits.closeTimeoutMs / 4),
  );
  sweep.unref();
  return {
    afterPendingAnswers,
    inOrder,
    closeAfter: (reply) => closeAfter(reply, limits.closeTimeoutMs),
    close: () => clearInterval(sweep),
  };
}

/**
 * The server's "connection" listener: it tracks each connection in `open`, and destroys one
 * whose address already holds `maxPerAddress` (0: no cap).
 */
function admitter(
  open: Set<GuardedSocket>,
  maxPerAddress: number,
  onDropped: () => void,
): (socket: GuardedSocket) => void {
  const perAddress = new Map<string, number>();
  return (socket) => {
    const address = addressKey(socket.remoteAddress);
    const held = perAddress.get(address) ?? 0;
    if (maxPerAddress > 0 && held >= maxPerAddress) {
      onDropped();
      socket.destroy();
      return;
    }
    perAddress.set(address, held + 1);
    const tracked: Tracked = {
      address,
      pending: [],
      backloggedSince: undefined,
      endedSince: undefined,
    };
    socket[TRACKED] = tracked;
    open.add(socket);
    socket.once("close", () => {
      open.delete(socket);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  };
}

/** The server's "request" listener: the answer is owed on its connection until it is done. */
function oweAnswer(request: IncomingMessage, response: ServerResponse): void {
  const tracked = (request.socket as GuardedSocket)[TRACKED];
  if (tracked === undefined) return;
  tracked.pending.push(response);
  // "close" comes once the answer is done (or the connection gone), after Node has handed
  // the socket to the next pipelined answer. It comes once per answer, so one shared
  // listener, added with `on`, needs neither a closure nor once's wrapper per request.
  response.on("close", answered);
}

const afterPendingAnswers: ConnectionGuard["afterPendingAnswers"] = (socket, write) => {
  const tracked = (socket as GuardedSocket)[TRACKED];
  // Only requests received in full are owed an answer: one cut short by the very error
  // being answered (a body that timed out, say) never will be.
  const owed = (tracked?.pending ?? []).filter((response) => response.req.complete);
  let left = owed.length;
  if (left === 0) write();
  for (const response of owed) {
    response.once("close", () => {
      left--;
      if (left === 0) write();
    });
  }
};

const inOrder: ConnectionGuard["inOrder"] = (request, reply, done) => {
  const pending = (request.raw.socket as GuardedSocket)[TRACKED]?.pending;
  const at = pending?.indexOf(reply.raw) ?? -1;
  if (pending === undefined || at <= 0) return done();
  const before = pending[at - 1] as ServerResponse;
  let safe = SAFE_METHODS.has(request.method);
  for (let i = 0; i < at && safe; i++) safe = SAFE_METHODS.has(pending[i]?.req.method ?? "");
  if (safe) return done();
  // Answers are written in order, so the one just before finishing means all before it have.
  before.once("close", () => done());
};

function closeAfter(reply: FastifyReply, closeTimeoutMs: number): void {
  reply.header("connection", "close");
  const socket = reply.raw.req.socket as GuardedSocket;
  // Node calls this once the answer is written, to close a connection that does not stay
  // open. In its place: our side is closed, and what the client still sends is read (and
  // dropped by the HTTP parser) until LINGER_BYTES more have come, the client closes, or
  // the close timeout passes; then the connection is reset.
  socket.destroySoon = function lingeringClose(this: GuardedSocket) {
    this.end();
    const from = this.bytesRead;
    const check = setInterval(() => {
      if (this.bytesRead - from > LINGER_BYTES) this.resetAndDestroy();
    }, LINGER_CHECK_MS);
    const timer = setTimeout(() => this.destroy(), closeTimeoutMs);
    check.unref();
    timer.unref();
    this.once("close", () => {
      clearInterval(check);
      clearTimeout(timer);
    });
  };
}

/** A response's "close" listener: the answer is no longer owed on its connection. */
function answered(this: ServerResponse): void {
  const pending = (this.req.socket as GuardedSocket)[TRACKED]?.pending;
  if (pending === undefined) return;
  // Node answers a connection's requests in the order they came, so this is the first.
  if (pending[0] === this) pending.shift();
  else {
    const at = pending.indexOf(this);
    if (at !== -1) pending.splice(at, 1);
  }
}

function sweepConnections(open: Set<GuardedSocket>, limits: ConnectionLimits, now: number): void {
  for (const socket of open) {
    const tracked = socket[TRACKED];
    if (tracked === undefined || socket.destroyed) continue;
    if (socket.writableLength > 0) tracked.backloggedSince ??= now;
    else tracked.backloggedSince = undefined;
    if (socket.writableEnded) tracked.endedSince ??= now;
    const stalled =
      tracked.backloggedSince !== undefined &&
      now - tracked.backloggedSince >= limits.sendTimeoutMs;
    const halfOpen =
      tracked.endedSince !== undefined && now - tracked.endedSince >= limits.closeTimeoutMs;
    // A reset, not a FIN: the kernel drops what the client never took instead of holding it.
    if (stalled || halfOpen) socket.resetAndDestroy();
  }
}

/** One client: an IPv4 address, or an IPv6 address's /64 (one subscriber's usual share). */
export function addressKey(address: string | undefined): string {
  if (address === undefined) return "unknown";
  // IPv4, the usual case, without isIPv6's long pattern (this runs on every request).
  if (!address.includes(":")) return address;
  if (address.startsWith("::ffff:") && address.includes(".")) return address.slice(7);
  if (!isIPv6(address)) return address;
  return expandIPv6(address).slice(0, 4).join(":");
}

function expandIPv6(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => "0");
  return [...left, ...(tail === undefined ? [] : zeros), ...right].map((group) =>
    group.toLowerCase().replace(/^0+(?=.)/, ""),
  );
}
