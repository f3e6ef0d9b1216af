// Authentication for one operation, as its security requirements in the document say, run by
// the gate as its route's first step (src/http/gate.ts): before its body is read, so that
// nobody without credentials can make the server read, decode or parse one. Each requirement names one scheme
// (several are alternatives, tried in order); a scheme is checked by the checker the app gives
// for its name, and a name without one stops start-up (fail closed). Then the caller's rate
// limit, then the scopes the operation lists in x-required-scopes.
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import type { Operation } from "openapi-backend";
import { LruMap } from "toad-cache";
import { checkScopes } from "../auth/authenticator.ts";
import type { AuthFailure, AuthOutcome } from "../auth/outcome.ts";
import { addressKey } from "../http/connections.ts";
import { Problem, refusal } from "../http/errors.ts";
import { authFailureResponse } from "./auth-response.ts";
import { SCOPES_EXTENSION } from "./document.ts";

/** Checks a request's Authorization header for one scheme; a promise only when it must wait. */
export type SchemeCheck = (authorization: string | undefined) => AuthOutcome | Promise<AuthOutcome>;

export interface SecurityOptions {
  /**
   * A checker per security scheme of the document; `"open"` for a scheme this server does not
   * enforce (GET /metrics's token when none is configured).
   */
  schemes: Readonly<Record<string, SchemeCheck | "open">>;
  rateLimits: RateLimits;
  /** Told about every refused authentication, before the answer is sent. */
  onAuthFailure?: ((failure: AuthFailure) => void) | undefined;
}

/** The onRequest hook that authenticates callers of `operation`; undefined when it is open. */
export function authenticationFor(
  operation: Operation,
  options: SecurityOptions,
): onRequestHookHandler | undefined {
  const checks: SchemeCheck[] = [];
  for (const requirement of operation.security ?? []) {
    const names = Object.keys(requirement);
    // An empty requirement ({}) makes credentials optional: the operation is open.
    if (names.length === 0) return undefined;
    const [name] = names;
    if (names.length > 1 || name === undefined) {
      throw new Error(
        `${operation.operationId}: a requirement of several schemes is not supported`,
      );
    }
    const check = options.schemes[name];
    if (check === undefined)
      throw new Error(`${operation.operationId}: no checker for scheme ${name}`);
    if (check === "open") return undefined;
    checks.push(check);
  }
  if (checks.length === 0) return undefined;
  const scopes = requiredScopes(operation);
  const { rateLimits, onAuthFailure } = options;

  /** Settles the request with the first scheme's outcome that let it in, or the first failure. */
  const settle = (
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: AuthOutcome,
    done: (error?: Error) => void,
  ): void => {
    try {
      rateLimits.afterAuthentication(request, reply, outcome);
      const scoped = outcome.ok ? checkScopes(outcome.principal, scopes) : outcome;
      if (scoped.ok) {
        done();
        return;
      }
      noteFailure(request, reply, scoped);
      onAuthFailure?.(scoped);
      done(refusal(authFailureResponse(scoped)));
    } catch (error) {
      done(error as Error);
    }
  };

  // Callback style, not async: a static token is known at once, and only a lookup or a
  // signature check makes the request wait.
  return function authenticate(request, reply, done) {
    try {
      rateLimits.beforeAuthentication(request);
      const authorization = request.headers.authorization;
      const tryFrom = (at: number, first?: AuthOutcome): void => {
        const check = checks[at];
        if (check === undefined) {
          settle(request, reply, first as AuthOutcome, done);
          return;
        }
        const outcome = check(authorization);
        const next = (known: AuthOutcome) =>
          known.ok ? settle(request, reply, known, done) : tryFrom(at + 1, first ?? known);
        if (outcome instanceof Promise) outcome.then(next, done);
        else next(outcome);
      };
      tryFrom(0);
    } catch (error) {
      done(error as Error);
    }
  };
}

/** On the request's one log line: why, and which token when known; never the token. */
function noteFailure(request: FastifyRequest, reply: FastifyReply, failure: AuthFailure): void {
  const { kind, reason, token } = failure;
  request.log = request.log.child({ auth: { failure: kind, reason, token } });
  reply.log = request.log;
}

/** The operation's x-required-scopes: a list of scope names, or none. */
export function requiredScopes(operation: Operation): readonly string[] {
  const scopes: unknown = (operation as unknown as Record<string, unknown>)[SCOPES_EXTENSION];
  if (scopes === undefined) return [];
  if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === "string")) {
    throw new Error(`${SCOPES_EXTENSION} of ${operation.operationId} must be a list of strings`);
  }
  return scopes;
}

// Rate limits (in memory, per instance, one-minute windows): requests per caller, and rejected
// credentials per client address against guessing. An address already over its limit is
// refused before its credentials are checked, so a blocked address learns nothing more about
// its guesses; what authentication then decides is counted before anything is answered. The
// caller is who authentication says it is, so respelling the header (scheme case, spaces) or
// minting new JWTs for one subject does not multiply the limit. The contract's own format of
// the IETF RateLimit fields is why this is not @fastify/rate-limit, whose headers differ.
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

// Counts per key in fixed windows (a minute, for the rate limits), in memory, for at most
// `capacity` keys: toad-cache's LRU map forgets the key counted least recently first, so no
// client can grow it without bound, and a window's entry expires with the window.
export interface WindowCount {
  /** Counted in the current window, this call's step included. */
  count: number;
  /** Whole seconds until the window ends, at least 1. */
  resetInSeconds: number;
}

export interface WindowCounter {
  /** Counts one more for `key`. */
  add(key: string): WindowCount;
  /** The count for `key`, counting nothing. */
  peek(key: string): WindowCount;
}

interface Window {
  count: number;
  endsAt: number;
}

export function createWindowCounter(windowMs: number, capacity: number): WindowCounter {
  const windows = new LruMap<Window>(capacity, windowMs);
  // Each call gets its own snapshot: requests checked at the same moment each see the count as
  // it was after their own step.
  const snapshot = (window: Window | undefined, now: number): WindowCount => ({
    count: window?.count ?? 0,
    resetInSeconds: Math.max(1, Math.ceil(((window?.endsAt ?? now + windowMs) - now) / 1000)),
  });
  return {
    add(key) {
      const now = Date.now();
      let window = windows.get(key);
      if (window === undefined) {
        window = { count: 0, endsAt: now + windowMs };
        windows.set(key, window);
      }
      window.count++;
      return snapshot(window, now);
    },
    peek(key) {
      return snapshot(windows.get(key), Date.now());
    },
  };
}
