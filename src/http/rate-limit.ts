// Rate limits (in memory, per instance, one-minute windows): requests per caller, and rejected
// credentials per client address against guessing. An address already over its limit is
// refused once the request is routed to an operation that needs credentials and before they
// are checked, so 404/405 come first and a blocked address learns nothing more about its
// guesses; what authentication then decides is counted before anything is answered. The
// caller is who authentication says it is, so respelling the header (scheme case, spaces) or
// minting new JWTs for one subject does not multiply the limit.
import type { FastifyRequest } from "fastify";
import type { Operation } from "openapi-backend";
import type { AuthOutcome } from "../auth/outcome.ts";
import type { OpsConfig } from "../config.ts";
import { addressKey } from "./connections.ts";
import { requestSlot } from "./request-slot.ts";
import { type ApiResponse, errorResponse } from "./responses.ts";
import { createWindowCounter } from "./window-counter.ts";

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

export interface RateLimits {
  /** Throws RateLimitedError when this request may not go on to authentication. */
  beforeAuthentication(request: FastifyRequest, operation: Operation): void;
  /**
   * Counts what authentication decided, before anything is answered: a rejected credential
   * against the client's address, a request against the caller's own limit. Throws
   * RateLimitedError when either is over its limit, whatever the outcome, so that a guess
   * made while the address is blocked tells nothing, however many were sent at once.
   */
  afterAuthentication(request: FastifyRequest, outcome: AuthOutcome): void;
  /**
   * The caller's limit as the answer announces it (IETF RateLimit-Policy and RateLimit fields):
   * the quota, what is left of it and when the window ends. Only for a request counted against
   * a caller's limit; undefined otherwise.
   */
  headersFor(request: FastifyRequest): Readonly<Record<string, string>> | undefined;
}

/** The name the answer's RateLimit fields give the per-caller limit. */
const CALLER_POLICY = "per-caller";

type Limits = Pick<OpsConfig, "tokenRateLimit" | "authFailureLimit">;

// Keys each counter remembers; past that the least recently counted is forgotten (its client
// starts afresh), which bounds memory whatever the number of addresses or callers.
const REMEMBERED_KEYS = 10_000;

export function createRateLimits(limits: Limits): RateLimits {
  const perCaller = createWindowCounter(WINDOW_MS, REMEMBERED_KEYS);
  const policy = `"${CALLER_POLICY}";q=${limits.tokenRateLimit};w=${WINDOW_MS / 1000}`;
  // Keyed by the client address as Fastify sees it (PLANTSTORE_TRUST_PROXY), IPv6 by /64.
  const failures = createWindowCounter(WINDOW_MS, REMEMBERED_KEYS);
  const blocked = (resetInSeconds: number) =>
    tooMany(
      `too many rejected credentials from this address (more than ${limits.authFailureLimit} a minute)`,
      resetInSeconds,
    );

  return {
    beforeAuthentication(request, operation) {
      if (limits.authFailureLimit === 0 || !needsCredentials(operation)) return;
      const seen = failures.peek(addressKey(request.ip));
      if (seen.count >= limits.authFailureLimit) throw blocked(seen.resetInSeconds);
    },
    afterAuthentication(request, outcome) {
      if (limits.authFailureLimit > 0 && (outcome.ok || outcome.kind === "invalid_token")) {
        // A rejection is counted now; an acceptance only looks, in case guesses sent alongside
        // it have used up the address's allowance meanwhile.
        const address = addressKey(request.ip);
        const seen = outcome.ok ? failures.peek(address) : failures.add(address);
        const over = outcome.ok
          ? seen.count >= limits.authFailureLimit
          : seen.count > limits.authFailureLimit;
        if (over) throw blocked(seen.resetInSeconds);
      }
      if (limits.tokenRateLimit === 0 || !outcome.ok) return;
      const used = perCaller.add(outcome.principal.limitKey);
      const remaining = Math.max(0, limits.tokenRateLimit - used.count);
      announced.set(request, {
        "ratelimit-policy": policy,
        ratelimit: `"${CALLER_POLICY}";r=${remaining};t=${used.resetInSeconds}`,
      });
      if (used.count > limits.tokenRateLimit) {
        throw tooMany(
          `this token made more than ${limits.tokenRateLimit} requests this minute`,
          used.resetInSeconds,
        );
      }
    },
    headersFor: (request) => announced.get(request),
  };
}

// What a counted request's answer announces; gone with the request.
const announced = requestSlot<Readonly<Record<string, string>>>("announced rate limit");

// Runs on every request: the requirements are looked into, not listed (Object.keys allocated
// a list per requirement per request).
const needsCredentials = (operation: Operation): boolean =>
  (operation.security ?? []).some(namesAScheme);

function namesAScheme(requirement: Record<string, unknown>): boolean {
  for (const scheme in requirement) if (Object.hasOwn(requirement, scheme)) return true;
  return false;
}

function tooMany(reason: string, seconds: number): RateLimitedError {
  const message = `${reason}; retry in ${seconds} s`;
  return new RateLimitedError(
    message,
    errorResponse(429, message, { "retry-after": String(seconds) }),
  );
}
