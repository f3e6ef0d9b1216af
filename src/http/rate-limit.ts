// Rate limits (@fastify/rate-limit, in memory, per instance): requests per bearer token, and
// rejected credentials per client address against guessing. Both apply once the request is
// routed to an operation that needs credentials and before they are checked, so 404/405 come
// first and a blocked address learns nothing more about its guesses.
import { createHash } from "node:crypto";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Operation } from "openapi-backend";
import type { OpsConfig } from "../config.ts";
import { authFailureOf } from "./auth-failure.ts";
import { type ApiResponse, errorResponse } from "./responses.ts";

const WINDOW_MS = 60_000;

/** A request over a limit; `response` is its 429. */
export class RateLimitedError extends Error {
  override name = "RateLimitedError";
  constructor(
    message: string,
    readonly response: ApiResponse,
  ) {
    super(message);
  }
}

/** The 429 for a RateLimitedError; any other error is rethrown. */
export function refusalOf(error: unknown): ApiResponse {
  if (error instanceof RateLimitedError) return error.response;
  throw error;
}

/** Throws RateLimitedError when this request may not go on to authentication. */
export type LimitCheck = (request: FastifyRequest, operation: Operation) => Promise<void>;

type Limits = Pick<OpsConfig, "tokenRateLimit" | "authFailureLimit">;

export async function addRateLimits(app: FastifyInstance, limits: Limits): Promise<LimitCheck> {
  // global: false: no hook of the plugin's own; the limiters below are called where they belong.
  await app.register(rateLimit, { global: false });
  const perToken =
    limits.tokenRateLimit === 0
      ? undefined
      : app.createRateLimit({
          max: limits.tokenRateLimit,
          timeWindow: WINDOW_MS,
          keyGenerator: tokenKey,
          // Requests without credentials are limited by nothing here (they get 401).
          allowList: (request) => request.headers.authorization === undefined,
        });
  // Keyed by the client address as Fastify sees it (PLANTSTORE_TRUST_PROXY), IPv6 by /64.
  const failuresPerAddress =
    limits.authFailureLimit === 0
      ? undefined
      : app.createRateLimit({ max: limits.authFailureLimit, timeWindow: WINDOW_MS });

  if (failuresPerAddress !== undefined) {
    app.addHook("onResponse", async (request, reply) => {
      if (authFailureOf(reply) === "invalid_token") await failuresPerAddress(request);
    });
  }

  return async (request, operation) => {
    if (!needsCredentials(operation)) return;
    if (failuresPerAddress !== undefined) {
      const seen = await failuresPerAddress(request, { increment: false });
      if (!seen.isAllowed && seen.remaining === 0) {
        throw tooMany(
          `too many rejected credentials from this address (more than ${limits.authFailureLimit} a minute)`,
          seen.ttlInSeconds,
        );
      }
    }
    if (perToken !== undefined) {
      const used = await perToken(request);
      if (!used.isAllowed && used.isExceeded) {
        throw tooMany(
          `this token made more than ${limits.tokenRateLimit} requests this minute`,
          used.ttlInSeconds,
        );
      }
    }
  };
}

const needsCredentials = (operation: Operation): boolean =>
  (operation.security ?? []).some((requirement) => Object.keys(requirement).length > 0);

// A digest, so no token is kept in memory as a key (or shown in a heap dump).
const tokenKey = (request: FastifyRequest): string =>
  createHash("sha256")
    .update(request.headers.authorization ?? "")
    .digest("base64url");

function tooMany(reason: string, ttlSeconds: number): RateLimitedError {
  const seconds = Math.max(1, ttlSeconds);
  const message = `${reason}; retry in ${seconds} s`;
  return new RateLimitedError(
    message,
    errorResponse(429, message, { "retry-after": String(seconds) }),
  );
}
