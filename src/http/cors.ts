// CORS (@fastify/cors) for the origins in PLANTSTORE_CORS_ORIGINS; none by default. A preflight
// from an allowed origin is answered 204 with the Access-Control-Allow-* headers; one from any
// other origin gets a 403 from admission (admission.ts), with no CORS headers. Other requests go on:
// an OPTIONS that is not a preflight still gets the document's 404 or 405. With no origin
// configured the plugin is not registered: no answer varies by Origin then, and the plugin
// builds its options on every request (BENCHMARKS.md, "CORS").
import cors from "@fastify/cors";
import type { FastifyInstance, FastifyRequest } from "fastify";

// Preflights are cached by browsers this long (Chromium caps it at 2 hours).
const PREFLIGHT_MAX_AGE_SECONDS = 600;
/** The variable a refused preflight is told to look at. */

/** What the document says cross-origin callers may use and read. */
export interface CorsSurface {
  /** Every method the document has on some path. */
  methods: readonly string[];
  /** Every header a documented answer carries, besides X-Request-Id. */
  responseHeaders: readonly string[];
}

export async function addCors(
  app: FastifyInstance,
  origins: readonly string[] | "*",
  surface: CorsSurface,
): Promise<void> {
  const allowed = (origin: string | undefined): boolean =>
    origin !== undefined && (origins === "*" || origins.includes(origin));

  if (origins !== "*" && origins.length === 0) return;

  // The options a request gets are chosen from three made once: none for a request from an
  // origin not allowed (or none), and for an allowed one, with or without the preflight answer
  // (an OPTIONS that is not a preflight goes on to routing).
  const granted = (preflight: boolean) => ({
    // "*" needs no reflection; otherwise the request's own (allowed) origin is echoed.
    origin: origins === "*" ? "*" : true,
    methods: [...surface.methods],
    allowedHeaders: ["Authorization", "Content-Type", "X-Request-Id"],
    // A page reading a paged list needs Link, one retrying needs Retry-After: whatever the
    // document's answers carry, so that a header added there is readable from a browser too.
    exposedHeaders: [...new Set([...surface.responseHeaders, "X-Request-Id"])],
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    // Bearer tokens travel in a header the page sets; no cookies, so no credentials mode.
    credentials: false,
    preflight,
  });
  const forPreflight = granted(true);
  const forOthers = granted(false);
  const refused = { origin: false } as const;
  await app.register(cors, {
    delegator: (request: FastifyRequest, callback: (error: null, options: object) => void) => {
      if (!allowed(request.headers.origin)) callback(null, refused);
      else callback(null, isPreflight(request) ? forPreflight : forOthers);
    },
  });
}

const isPreflight = (request: FastifyRequest): boolean =>
  request.method === "OPTIONS" &&
  request.headers.origin !== undefined &&
  request.headers["access-control-request-method"] !== undefined;
