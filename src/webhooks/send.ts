// One delivery attempt of a webhook: a POST that either got an answer (any status, a redirect
// included, which is not followed) or failed in transit, in bounded time and bytes. Sent with
// undici, Node's own HTTP client: an Agent per endpoint pools its keep-alive connections (so an
// attempt never waits behind another endpoint's connections), and its
// connector takes our own DNS lookup, so the address actually connected to is checked then
// (DNS rebinding) and not only at registration. (request-filtering-agent does this for
// node:http's Agent, which has neither undici's pooling per origin nor its one abort signal.)
import { lookup as dnsLookup } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import "./node-fetch-first.ts";
import { Agent, buildConnector, request } from "undici";
import { refusedAmong } from "./endpoint-address.ts";

export type AttemptResult =
  | { kind: "answered"; status: number; durationMs: number }
  /** `timedOut`: no answer within the attempt's time (the receiver hangs, or is too slow). */
  | { kind: "failed"; error: string; durationMs: number; timedOut: boolean };

export interface Attempt {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The whole attempt (connect, send, answer) is given up after this long. */
  timeoutMs: number;
  /** Private, loopback and other special addresses may be contacted (tests, private networks). */
  allowPrivate: boolean;
  /** Ends the attempt at once (shutdown). */
  signal?: AbortSignal;
  /**
   * Whose connections to use (the endpoint's id), and how many it may open: the sender never
   * has more attempts to one endpoint under way, so none waits for a connection and its time
   * runs from when it is sent. Absent: one pool for the process.
   */
  pool?: { key: string; connections: number };
}

/** How much of an answer is read; the connection is dropped beyond it. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** A connection not made because of where it would go. */
class RefusedAddressError extends Error {
  override name = "RefusedAddressError";
}

/** Sends one attempt; never throws. */
export async function sendWebhookAttempt(attempt: Attempt): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let deadline: AbortSignal | undefined;
  let status: number;
  try {
    deadline = AbortSignal.timeout(attempt.timeoutMs);
    const signal =
      attempt.signal === undefined ? deadline : AbortSignal.any([deadline, attempt.signal]);
    const answer = await request(attempt.url, {
      method: "POST",
      headers: { ...attempt.headers, "content-type": "application/json" },
      body: attempt.body,
      dispatcher: agentFor(attempt.pool ?? SHARED_POOL, attempt.allowPrivate),
      signal,
    });
    status = answer.statusCode;
    // The status is the answer; the body is read (up to the bound) only so that the connection
    // can carry the next attempt, and a receiver that fails to finish it changes nothing.
    await answer.body.dump({ limit: MAX_ANSWER_BYTES, signal }).catch(() => undefined);
  } catch (error) {
    const timedOut = attempt.signal?.aborted !== true && deadline?.aborted === true;
    const why = attempt.signal?.aborted
      ? "aborted: the sender is stopping"
      : timedOut
        ? `timed out after ${attempt.timeoutMs} ms`
        : failureText(error);
    return { kind: "failed", error: why, durationMs: elapsed(), timedOut };
  }
  return { kind: "answered", status, durationMs: elapsed() };
}

const CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENOTFOUND: "the host was not found",
  EAI_AGAIN: "the host name could not be resolved (DNS failure)",
  UND_ERR_CONNECT_TIMEOUT: "timed out connecting",
  UND_ERR_SOCKET: "the connection closed before an answer",
};

/** A short text for the delivery log. */
function failureText(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  if (cause instanceof RefusedAddressError) return `refused: the host ${cause.message}`;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === "string" && CODES[code] !== undefined) return CODES[code];
  const message = cause instanceof Error ? cause.message : String(cause);
  return typeof code === "string" ? `${code}: ${message}` : message;
}

const SHARED_POOL = { key: "", connections: 4 };
const agents = new Map<string, Agent>();

/** One Agent per pool and policy, so connections to a receiver are reused. */
function agentFor(pool: { key: string; connections: number }, allowPrivate: boolean): Agent {
  const key = `${allowPrivate}:${pool.key}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    agent = new Agent({
      connections: pool.connections,
      ...(allowPrivate ? {} : { connect: checkedConnector() }),
    });
    agents.set(key, agent);
  }
  return agent;
}

/** Closes one pool's connections (its endpoint deleted or disabled). */
export async function closePool(key: string): Promise<void> {
  const closing = [true, false].flatMap((allowPrivate) => {
    const agent = agents.get(`${allowPrivate}:${key}`);
    agents.delete(`${allowPrivate}:${key}`);
    return agent === undefined ? [] : [agent.destroy()];
  });
  await Promise.all(closing);
}

/** Closes the pooled connections (shutdown, tests); a later attempt opens new ones. */
export async function closeWebhookConnections(): Promise<void> {
  const open = [...agents.values()];
  agents.clear();
  await Promise.all(open.map((agent) => agent.destroy()));
}

/** A connector that refuses a special-purpose address before connecting to it. */
function checkedConnector(): buildConnector.connector {
  const connect = buildConnector({ lookup: lookupRefusing(refusedAmong) });
  return (options, callback) => {
    // An IP in the URL is connected to without a lookup: checked here instead.
    const refused = isIP(options.hostname) === 0 ? undefined : refusedAmong([options.hostname]);
    if (refused === undefined) connect(options, callback);
    else callback(new RefusedAddressError(refused), null);
  };
}

/**
 * dns.lookup, failing when `refused` objects to the addresses the name resolves to (any one of
 * them: the connection may go to any).
 */
export function lookupRefusing(
  refused: (addresses: readonly string[]) => string | undefined,
  // Another resolver: a test's, which fails as a name that does not resolve (tests stay offline).
  resolve: typeof dnsLookup = dnsLookup,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, "");
      const why = refused(addresses.map((a) => a.address));
      if (why !== undefined) return callback(new RefusedAddressError(why), "");
      const [first] = addresses;
      if (options.all === true || first === undefined) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}
