// One Fastify request as openapi-backend's handlers are given it (the `Call` of
// src/openapi/backend.ts): the request to route, its body read only when asked, and the seams
// the rate limits and the auth-failure log hang on. One object per request, its steps methods
// of the class rather than closures made for each request: every request but CONNECT goes
// through here, and each closure was an allocation (BENCHMARKS.md, thirteenth session).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Operation, Request } from "openapi-backend";
import type { AuthFailure, AuthOutcome } from "../auth/outcome.ts";
import type { Call } from "../openapi/backend.ts";
import { openapiRequest } from "../openapi/decide.ts";
import { type Body, type BodyShape, interpretBody } from "./body.ts";
import type { RateLimits } from "./rate-limit.ts";
import { declaredContentType } from "./request-head.ts";

/** What every request of one app shares. */
export interface CallSettings {
  readonly rateLimits: RateLimits;
  /** Told about every refused authentication (the app's onAuthFailure option). */
  readonly onAuthFailure: ((failure: AuthFailure) => void) | undefined;
}

export class RequestCall implements Call {
  readonly request: Request;
  // Present from the start, so every instance keeps one shape when it is set.
  inputs: Call["inputs"] = undefined;

  constructor(
    private readonly settings: CallSettings,
    private readonly from: FastifyRequest,
    private readonly reply: FastifyReply,
    /** A problem found while the body was received, reported in place of reading it. */
    private readonly bodyProblem: Body | undefined,
    readonly params: Record<string, string> | undefined,
  ) {
    this.request = openapiRequest(from.method, from.url, from.headers, from.query);
  }

  readBody(shape: BodyShape): Body {
    if (this.bodyProblem !== undefined) return this.bodyProblem;
    const { headers, body } = this.from;
    return interpretBody(
      {
        "content-type": declaredContentType(this.from),
        "content-encoding": headers["content-encoding"],
        "transfer-encoding": headers["transfer-encoding"],
      },
      body as Buffer | undefined,
      shape,
    );
  }

  onAuthFailure(failure: AuthFailure): void {
    // On the request's one log line: why, and which token when known; never the token.
    const { kind, reason, token } = failure;
    this.reply.log = this.reply.log.child({ auth: { failure: kind, reason, token } });
    this.settings.onAuthFailure?.(failure);
  }

  beforeAuthentication(operation: Operation): void {
    this.settings.rateLimits.beforeAuthentication(this.from, operation);
  }

  afterAuthentication(outcome: AuthOutcome): void {
    this.settings.rateLimits.afterAuthentication(this.from, outcome);
  }
}
