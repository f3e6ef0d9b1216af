// CORS (@fastify/cors) for the origins in PLANTSTORE_CORS_ORIGINS; none by default. A preflight
// from an allowed origin is answered 204 with the Access-Control-Allow-* headers; one from any
// other origin gets a 403 that says why, with no CORS headers. Other requests go on as usual:
// an OPTIONS that is not a preflight still gets openapi-backend's 404 or 405.
import cors from "@fastify/cors";
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import type { OpsConfig } from "../config.ts";
import { type ApiResponse, errorResponse } from "./responses.ts";

type Send = (reply: FastifyReply, response: ApiResponse) => FastifyReply;

// Preflights are cached by browsers this long (Chromium caps it at 2 hours).
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** What the document says cross-origin callers may use and read. */
export interface CorsSurface {
  /** Every method the document has on some path. */
  methods: readonly string[];
  /** Every header a documented answer carries, besides X-Request-Id. */
  responseHeaders: readonly string[];
}

export async function addCors(
  app: FastifyInstance,
  send: Send,
  origins: OpsConfig["corsOrigins"],
  surface: CorsSurface,
  /** Whether requests without Origin skip the plugin (see onlyWithOrigin); the served app does. */
  shortcut = true,
): Promise<void> {
  // A page reading a paged list needs Link, one retrying needs Retry-After: whatever the
  // document's answers carry, so that a header added there is readable from a browser too.
  const exposedHeaders = [...new Set([...surface.responseHeaders, "X-Request-Id"])];
  const allowed = (origin: string | undefined): boolean =>
    origin !== undefined && (origins === "*" || origins.includes(origin));

  /** Answers a preflight from an origin not allowed with a 403; whether it did. */
  const refused = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (!isPreflight(request) || allowed(request.headers.origin)) return false;
    const message =
      origins.length === 0
        ? "cross-origin requests are not enabled on this server (PLANTSTORE_CORS_ORIGINS)"
        : `the origin ${request.headers.origin} may not call this server (PLANTSTORE_CORS_ORIGINS)`;
    send(reply, errorResponse(403, message));
    return true;
  };

  // @fastify/cors asks for the options on every request; they are built once, so that a
  // request costs a lookup instead of a new options object and method list.
  const refusedOptions = { origin: false } as const;
  const granted = (preflight: boolean) => ({
    // "*" needs no reflection; otherwise the request's own (allowed) origin is echoed.
    origin: origins === "*" ? "*" : true,
    methods: [...surface.methods],
    allowedHeaders: ["Authorization", "Content-Type", "X-Request-Id"],
    exposedHeaders,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    // Bearer tokens travel in a header the page sets; no cookies, so no credentials mode.
    credentials: false,
    // Only a real preflight is answered here; any other OPTIONS goes on to routing.
    preflight,
  });
  const forPreflight = granted(true);
  const forOthers = granted(false);
  const options = {
    delegator: (request: FastifyRequest, callback: (error: null, options: object) => void) => {
      if (!allowed(request.headers.origin)) callback(null, refusedOptions);
      else callback(null, isPreflight(request) ? forPreflight : forOthers);
    },
  };
  if (!shortcut) {
    app.addHook("onRequest", (request, reply, done) => {
      if (!refused(request, reply)) done();
    });
    await app.register(cors, options);
    return;
  }
  await new Promise<void>((resolve, reject) =>
    cors(onlyWithOrigin(app, refused), options, (error) => (error ? reject(error) : resolve())),
  );
}

/**
 * The app as @fastify/cors sees it when it registers: its request hook runs only for requests
 * that carry an Origin header. In delegator mode the plugin builds its options afresh twice per
 * request (3-4% of a request's CPU in a profile), and for a request without Origin, which is
 * not a CORS request, all it then does is add Origin to Vary (its options are per request, so
 * the answer may vary by Origin). That much is done here directly. Anything else (a route's own
 * `cors` config, a Vary already set) goes to the plugin as before, after `refused` (a preflight
 * from an origin not allowed gets its 403 instead): that check runs in the same hook rather than
 * in one of its own, which every request would step through, and it concerns only requests with
 * an Origin. The reference pipeline keeps the plugin and the check each in a hook of its own
 * on every request, so the differential test holds this shortcut to them.
 */
function onlyWithOrigin(
  app: FastifyInstance,
  refused: (request: FastifyRequest, reply: FastifyReply) => boolean,
): FastifyInstance {
  const guarded = (hook: onRequestHookHandler): onRequestHookHandler =>
    function (this: FastifyInstance, request, reply, done) {
      const config = request.routeOptions.config as { cors?: unknown };
      if (
        request.headers.origin === undefined &&
        config.cors === undefined &&
        !reply.hasHeader("vary")
      ) {
        reply.header("vary", "Origin");
        return done();
      }
      if (refused(request, reply)) return;
      return hook.call(this, request, reply, done);
    };
  const addHook = (name: string, hook: onRequestHookHandler) =>
    app.addHook(name as "onRequest", name === "onRequest" ? guarded(hook) : hook);
  return new Proxy(app, {
    get(target, key) {
      if (key === "addHook") return addHook;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const isPreflight = (request: FastifyRequest): boolean =>
  request.method === "OPTIONS" &&
  request.headers.origin !== undefined &&
  request.headers["access-control-request-method"] !== undefined;
