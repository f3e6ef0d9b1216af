// The gate: every request's one onRequest hook (Fastify runs each hook as a step of its own on
// every request). In this order: a CORS preflight from an origin not allowed is refused; the
// server is not overloaded nor shutting down; its head can be read one way only; some
// operation takes it (else 404 or 405, before anything reads its body); the requests before it
// on its connection have been answered where it must see what they did (connections.ts); then
// its operation's own first step (routes.ts: the route's shape and authentication).
import underPressure from "@fastify/under-pressure";
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from "fastify";
import { nameOf } from "../config/settings.ts";
import type { ConnectionGuard } from "./connections.ts";
import { Problem } from "./errors.ts";

export interface GateOptions {
  connections: ConnectionGuard;
  /** The origins whose preflights are answered (PLANTSTORE_CORS_ORIGINS). */
  corsOrigins: readonly string[] | "*";
  /** Past this lag requests are refused; 0 for never (PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS). */
  maxEventLoopDelayMs: number;
  /** The 404 or 405 for a request no operation's route took. */
  unrouted(request: FastifyRequest): Problem;
}

/** What the gate knows of shutting down, for the answers (answer.ts). */
export interface Draining {
  /** Whether app.close() is draining: every answer closes its connection then. */
  closing(): boolean;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's own first step, run by the gate once the request may go on. */
    onRequest?: onRequestHookHandler;
  }
}

export async function addGate(app: FastifyInstance, options: GateOptions): Promise<Draining> {
  const { connections, corsOrigins, unrouted } = options;
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  const overloaded = await watchOverload(app, options.maxEventLoopDelayMs);
  app.addHook("onRequest", function (this: FastifyInstance, request, reply, done) {
    const refusal =
      corsRefusal(corsOrigins, request) ??
      overloaded(request) ??
      (closing ? SHUTTING_DOWN : undefined) ??
      headProblem(request);
    if (refusal !== undefined) return done(refusal);
    // Only an operation's route has a first step: Fastify's 404, or the OPTIONS * route
    // @fastify/cors adds for preflights (an allowed one is answered before the gate), is none.
    const step = request.routeOptions.config.onRequest;
    if (step === undefined) return done(unrouted(request));
    // The step may run from a listener once earlier answers are out: a throw is the request's.
    connections.inOrder(request, reply, () => {
      try {
        step.call(this, request, reply, done);
      } catch (error) {
        done(error as Error);
      }
    });
  });
  return { closing: () => closing };
}

// Fastify's own 503-while-closing body is not the contract's Error shape (return503OnClosing
// is off), so a late request gets this, and its connection closes (answer.ts).
const SHUTTING_DOWN = new Problem(503, "the server is shutting down; retry shortly", {
  "retry-after": "1",
});

/**
 * A preflight from an origin PLANTSTORE_CORS_ORIGINS does not allow gets a 403 that says why,
 * with no CORS headers; @fastify/cors (cors.ts) answers the others.
 */
function corsRefusal(origins: readonly string[] | "*", request: FastifyRequest) {
  if (request.method !== "OPTIONS") return undefined;
  const { origin } = request.headers;
  if (origin === undefined || request.headers["access-control-request-method"] === undefined) {
    return undefined;
  }
  if (origins === "*" || origins.includes(origin)) return undefined;
  return new Problem(
    403,
    origins.length === 0
      ? `cross-origin requests are not enabled on this server (${CORS_SETTING})`
      : `the origin ${origin} may not call this server (${CORS_SETTING})`,
  );
}

const CORS_SETTING = nameOf("ops.corsOrigins");

// Liveness and metrics stay answered under overload: an orchestrator must not restart a
// process for being busy, and an operator needs the numbers most when it is.
const OVERLOAD_EXEMPT = ["/healthz", "/metrics"];
// The lag is sampled every second; two leaves a retry a fresh sample to meet.
const OVERLOADED = new Problem(503, "the server is overloaded; retry shortly", {
  "retry-after": "2",
});
// The samples just after start-up hold start-up's own work (compiling the document's validators
// and serializers blocks the loop for a second or more), which is not load: none refuses.
const SETTLE_MS = 2000;

/**
 * While the event loop lags past `maxDelayMs`, a request is refused at once with 503 rather
 * than queued without bound. @fastify/under-pressure samples the lag; registered without
 * thresholds it adds no hook of its own, and the gate asks it.
 */
async function watchOverload(
  app: FastifyInstance,
  maxDelayMs: number,
): Promise<(request: FastifyRequest) => Problem | undefined> {
  if (maxDelayMs === 0) return () => undefined;
  let readyAt = Number.POSITIVE_INFINITY;
  app.addHook("onReady", async () => {
    readyAt = performance.now();
  });
  await app.register(underPressure);
  return (request) =>
    app.memoryUsage().eventLoopDelay > maxDelayMs &&
    performance.now() - readyAt >= SETTLE_MS &&
    !OVERLOAD_EXEMPT.includes(targetPath(request.url))
      ? OVERLOADED
      : undefined;
}

// Headers that must appear at most once: Node keeps the first of several silently, so a
// request carrying two would be read differently by us and by any proxy in front of us.
const SINGLETON_HEADERS = new Set(["authorization", "content-type", "content-length", "host"]);
const SINGLETON_LENGTHS = new Set([...SINGLETON_HEADERS].map((name) => name.length));

/**
 * Most header lines a request may carry. Node would stop collecting them at 2000 and a
 * second Authorization after that would go unseen, so every line is collected (the 16 KiB
 * head limit bounds them) and a head with more than this many is refused.
 */
export const MAX_HEADER_LINES = 200;

/** A 400 or 431 for a head that cannot be read unambiguously, or undefined. */
function headProblem(request: FastifyRequest): Problem | undefined {
  const raw = request.raw.rawHeaders;
  if (raw.length / 2 > MAX_HEADER_LINES) {
    return new Problem(431, `the request has more than ${MAX_HEADER_LINES} header lines`);
  }
  if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
    return new Problem(400, "an HTTP/1.1 request needs a Host header");
  }
  let seen: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const given = raw[i] ?? "";
    // Only a name as long as one of them can be one: most lines are not lower-cased at all.
    if (!SINGLETON_LENGTHS.has(given.length)) continue;
    // Most clients send these names lower-case already.
    const name = SINGLETON_HEADERS.has(given) ? given : given.toLowerCase();
    if (!SINGLETON_HEADERS.has(name)) continue;
    seen ??= [];
    if (seen.includes(name)) return new Problem(400, `the ${name} header appears more than once`);
    seen.push(name);
  }
  const target = targetProblem(request.url);
  return target === undefined ? undefined : new Problem(400, target);
}

// The request target (RFC 9112 §3.2) as received: origin-form (`/plants?limit=2`), or
// absolute-form from a proxy (`http://host/plants`). Read in one pass, no patterns.
/** The path, as sent: no scheme and authority, no query; no dot-segment or %XX normalisation. */
export function targetPath(target: string): string {
  const rest = target.startsWith("/") ? target : afterAuthority(target);
  const query = rest.indexOf("?");
  return query === -1 ? rest : rest.slice(0, query);
}

/**
 * Why the target is not one to serve, or undefined: a fragment has no place in a request
 * (RFC 9112 §3.2), userinfo in an http URI is to be treated as an error (RFC 9110 §4.2.4), and
 * an absolute-form target names a resource of this server only with http or https.
 */
export function targetProblem(target: string): string | undefined {
  if (target.includes("#")) return "the request target is not valid: it has a fragment (#)";
  if (target.startsWith("/")) return undefined;
  const scheme = schemeOf(target);
  if (scheme !== undefined && scheme !== "http" && scheme !== "https") {
    // Cut: the scheme is the client's text, and this is only to name it.
    return `the request target is not valid: its scheme ${JSON.stringify(scheme.slice(0, MAX_LOGGED_NAME))} is not http or https`;
  }
  if (authorityOf(target).includes("@")) {
    return "the request target is not valid: it has userinfo (user@)";
  }
  return undefined;
}

/** The scheme of an absolute-form target, lower-cased; undefined for any other form. */
function schemeOf(target: string): string | undefined {
  const at = target.indexOf(SCHEME_END);
  return at === -1 ? undefined : target.slice(0, at).toLowerCase();
}

/**
 * The target as logged: the path and the names of the query's parameters, never a value (a
 * query can carry `access_token=`), a fragment or userinfo. An item without `=` may be a bare
 * secret rather than a name, so it is not written either.
 */
export function loggedTarget(target: string): string {
  const fragment = target.indexOf("#");
  const cut = fragment === -1 ? target : target.slice(0, fragment);
  const path = targetPath(cut);
  const query = cut.indexOf("?");
  if (query === -1) return path;
  const names = cut
    .slice(query + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      return equals === -1 ? "…" : `${pair.slice(0, Math.min(equals, MAX_LOGGED_NAME))}=…`;
    });
  return `${path}?${names.join("&")}`;
}

/**
 * Why the query of a target is not valid percent-encoding, naming the parameter, or undefined:
 * each "%" must start an escape of two hex digits, and the escapes must spell UTF-8 (RFC 3986
 * §2.1). Fastify's query parser keeps such text as it is (`?tag=%E0%A4%A` would reach a handler
 * as "%E0%A4%A"); it is refused here, as the router refuses it in the path. Linear: one scan for
 * a "%" in the usual query, then decodeURIComponent on each part that holds one.
 */
export function queryEncodingProblem(target: string): string | undefined {
  const start = target.indexOf("?");
  if (start === -1 || target.indexOf("%", start) === -1) return undefined;
  const fragment = target.indexOf("#", start);
  const query = target.slice(start + 1, fragment === -1 ? undefined : fragment);
  for (const pair of query.split("&")) {
    if (!pair.includes("%")) continue;
    const equals = pair.indexOf("=");
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const name = decodedOrUndefined(rawName);
    if (name === undefined) {
      return `query parameter name ${JSON.stringify(rawName)} has malformed percent-encoding`;
    }
    if (equals !== -1 && decodedOrUndefined(pair.slice(equals + 1)) === undefined) {
      return `query parameter ${name} has malformed percent-encoding`;
    }
  }
  return undefined;
}

/** A query part as the query parser reads it ("+" is a space), or undefined if malformed. */
function decodedOrUndefined(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replaceAll("+", " "));
  } catch {
    return undefined;
  }
}

const SCHEME_END = "://";
// Longer names are cut: a name is there to tell parameters apart, not to carry data.
const MAX_LOGGED_NAME = 64;

/** The authority of an absolute-form target; empty for any other. */
function authorityOf(target: string): string {
  const at = target.indexOf(SCHEME_END);
  if (at === -1) return "";
  const from = at + SCHEME_END.length;
  let end = from;
  while (end < target.length && !"/?#".includes(target[end] ?? "")) end++;
  return target.slice(from, end);
}

/** What follows the authority of an absolute-form target, starting with "/". */
function afterAuthority(target: string): string {
  const at = target.indexOf(SCHEME_END);
  if (at === -1) return target;
  const from = at + SCHEME_END.length + authorityOf(target).length;
  const rest = target.slice(from);
  return rest.startsWith("/") ? rest : `/${rest}`;
}
