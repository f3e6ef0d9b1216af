// Rate limits (in memory, per instance, one-minute windows): requests per caller, and rejected
// credentials per client address against guessing. An address already over its limit is
// refused before its credentials are checked, so a blocked address learns nothing more about
// its guesses; what authentication then decides is counted before anything is answered. The
// caller is who authentication says it is, so respelling the header (scheme case, spaces) or
// minting new JWTs for one subject does not multiply the limit. The contract's own format of
// the IETF RateLimit fields is why this is not @fastify/rate-limit, whose headers differ.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AuthOutcome } from "../auth/outcome.ts";
import { addressKey } from "./connections.ts";
import { Problem } from "./errors.ts";
import { createWindowCounter } from "./window-counter.ts";

const WINDOW_MS = 60_000;

export interface RateLimits {
  /** Throws a 429 Problem when the client's address may not try credentials now. */
  beforeAuthentication(request: FastifyRequest): void;
  /**
   * Counts what authentication decided, before anything is answered: a rejected credential
   * against the client's address, a request against the caller's own limit, which the answer
   * then announces (RateLimit-Policy, RateLimit). Throws a 429 Problem when either is over its
   * limit, whatever the outcome, so that a guess made while the address is blocked tells
   * nothing, however many were sent at once.
   */
  afterAuthentication(request: FastifyRequest, reply: FastifyReply, outcome: AuthOutcome): void;
}

/** The name the answer's RateLimit fields give the per-caller limit. */
const CALLER_POLICY = "per-caller";

export interface Limits {
  /** Requests per minute one caller may make; 0: no limit. */
  tokenRateLimit: number;
  /** Rejected credentials per minute one client address may send; 0: no limit. */
  authFailureLimit: number;
}

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
    beforeAuthentication(request) {
      if (limits.authFailureLimit === 0) return;
      const seen = failures.peek(addressKey(request.ip));
      if (seen.count >= limits.authFailureLimit) throw blocked(seen.resetInSeconds);
    },
    afterAuthentication(request, reply, outcome) {
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
      reply.header("ratelimit-policy", policy);
      reply.header("ratelimit", `"${CALLER_POLICY}";r=${remaining};t=${used.resetInSeconds}`);
      if (used.count > limits.tokenRateLimit) {
        throw tooMany(
          `this token made more than ${limits.tokenRateLimit} requests this minute`,
          used.resetInSeconds,
        );
      }
    },
  };
}

function tooMany(reason: string, seconds: number): Problem {
  return new Problem(429, `${reason}; retry in ${seconds} s`, { "retry-after": String(seconds) });
}
