// The request runner: the order every request is taken through, written once.
//   admit         the server takes it at all (admission.ts)
//   route         Fastify's router found an operation's route, and the path names it as the
//                 document writes it; a body sent to an operation that takes none is refused;
//                 the requests before it on its connection come first where it must see them
//   authenticate  the operation's security schemes (authentication.ts), before a byte of the
//                 body is read
//   limit         the caller's and the client address's rate limits (rate-limits.ts)
//   scopes        what the operation's x-required-scopes asks of the token (scopes.ts)
//   body          none where one is required, or one over the limit, is refused before it is
//                 read, else `100 Continue`; then the content-type parser (body-parsers.ts)
//   inputs        parameters and body read exactly and validated (inputs.ts)
//   handler       the operation's typed handler
//   answer        written by the serializer Fastify compiles from the response schema; its
//                 headers (answer-headers.ts), its metrics (request-metrics.ts) and one log line
//                 (request-log.ts)
// Fastify runs admit to scopes as one onRequest hook (it runs each hook as a step of its own),
// then the operation's route: preParsing (body), its parser, preValidation (inputs), the
// handler, and onSend and onResponse (answer). Each operation's steps are built once at
// start-up (operation-steps.ts). Every refusal or failure leaves through errors.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler } from "fastify";
import type { AuthFailure, AuthOutcome, SchemeCheck } from "../auth/outcome.ts";
import type { Api } from "../openapi/backend.ts";
import { JSON_CONTENT_TYPE } from "../openapi/responses.ts";
import { targetPath } from "../text/request-target.ts";
import type { Admission } from "./admission.ts";
import { setAnswerHeaders } from "./answer-headers.ts";
import { authenticationRefusal, identify } from "./authentication.ts";
import { announcesBody, type BodyShape, bodyRefusal } from "./body.ts";
import { addBodyParsers } from "./body-parsers.ts";
import type { ConnectionGuard } from "./connections.ts";
import { Problem } from "./errors.ts";
import type { Inputs } from "./inputs.ts";
import type { AcceptedMedia } from "./media-types.ts";
import type { OperationSteps } from "./operation-steps.ts";
import type { RateLimits } from "./rate-limits.ts";
import type { RequestMetrics } from "./request-metrics.ts";
import { routingRefusal } from "./routing.ts";
import { checkScopes } from "./scopes.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The operation the request was routed to, once its path is accepted (route). */
    operationId: string | undefined;
    /** What the operation's handler gets, once read and valid (inputs). */
    inputs: Inputs | undefined;
    /** The media types of the body the operation takes, once its path is accepted (route). */
    bodyMedia: AcceptedMedia | undefined;
  }
  interface FastifyContextConfig {
    /** The steps of the operation a route serves. */
    steps?: OperationSteps;
  }
}

export interface RunnerOptions {
  api: Api;
  operations: readonly OperationSteps[];
  admission: Admission;
  connections: ConnectionGuard;
  rateLimits: RateLimits;
  /** Told about every refused authentication, before the answer is sent. */
  onAuthFailure: ((failure: AuthFailure) => void) | undefined;
  metrics: RequestMetrics;
  bodyLimit: number;
}

type Done = (error?: Error) => void;

export function runRequests(app: FastifyInstance, options: RunnerOptions): void {
  const { api, admission, connections, rateLimits, onAuthFailure, bodyLimit } = options;
  app.decorateRequest("operationId", undefined);
  app.decorateRequest("inputs", undefined);
  app.decorateRequest("bodyMedia", undefined);

  // admit → route → authenticate → limit → scopes, in the one onRequest hook.
  app.addHook("onRequest", (request, reply, done) => {
    const refused = admission.refusal(request);
    if (refused !== undefined) return done(refused);
    // Only an operation's route has steps: Fastify's 404, or the OPTIONS * route @fastify/cors
    // adds for preflights (an allowed one is answered before this hook), has none.
    const steps = request.routeOptions.config.steps;
    if (steps === undefined) return done(routingRefusal(api, request.method, request.url));
    // May run from a listener once earlier answers are out: a throw is the request's.
    connections.inOrder(request, reply, () => {
      try {
        route(steps, request, reply, done);
      } catch (error) {
        done(error as Error);
      }
    });
  });

  const route = (
    steps: OperationSteps,
    request: FastifyRequest,
    reply: FastifyReply,
    done: Done,
  ) => {
    if (!steps.names(targetPath(request.url))) {
      return done(routingRefusal(api, request.method, request.url));
    }
    request.operationId = steps.id;
    request.bodyMedia = steps.body?.accepted;
    // Refused before anyone reads it (the connection closes).
    if (steps.body === undefined && announcesBody(request.headers)) {
      return done(new Problem(400, "a request body is not accepted: this operation takes none"));
    }
    if (steps.checks === undefined) return done();
    authenticate(steps, steps.checks, request, reply, done);
  };

  const authenticate = (
    steps: OperationSteps,
    checks: readonly SchemeCheck[],
    request: FastifyRequest,
    reply: FastifyReply,
    done: Done,
  ) => {
    // An address over its limit of rejected credentials is refused before they are checked.
    rateLimits.beforeAuthentication(request);
    const outcome = identify(checks, request.headers.authorization);
    if (!(outcome instanceof Promise)) return limitAndScopes(steps, request, reply, outcome, done);
    outcome.then((known) => limitAndScopes(steps, request, reply, known, done), done);
  };

  const limitAndScopes = (
    steps: OperationSteps,
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: AuthOutcome,
    done: Done,
  ) => {
    try {
      rateLimits.afterAuthentication(request, reply, outcome);
      const scoped = outcome.ok ? checkScopes(outcome.principal, steps.scopes) : outcome;
      if (scoped.ok) return done();
      const refusal = authenticationRefusal(request, reply, scoped);
      onAuthFailure?.(scoped);
      done(refusal);
    } catch (error) {
      done(error as Error);
    }
  };

  // answer: its headers just before it is sent, its metrics once it is.
  app.addHook("onSend", (request, reply, payload, done) => {
    setAnswerHeaders(request, reply, admission.closing(), connections);
    done(null, payload);
  });
  app.addHook("onResponse", (request, reply, done) => {
    options.metrics(routedOperationId(request) ?? "unmatched", request, reply);
    done();
  });

  // The operation's route: body → inputs → handler.
  addBodyParsers(app, bodyLimit);
  for (const steps of options.operations) {
    const { serializer } = steps;
    app.route({
      method: steps.method,
      url: steps.url,
      config: { steps },
      bodyLimit,
      schema: { response: steps.responseSchemas },
      ...(serializer === undefined
        ? {}
        : {
            serializerCompiler: ({ httpStatus }: { httpStatus?: string }) =>
              serializer(String(httpStatus)),
          }),
      ...(steps.body === undefined ? {} : { preParsing: beforeBody(steps.body, bodyLimit) }),
      preValidation: (request, _reply, done) => {
        const read = steps.readInputs({
          target: request.url,
          params: request.params as Record<string, unknown>,
          query: request.query as Record<string, unknown>,
          headers: request.headers,
          body: request.body as never,
        });
        if (!read.ok) return done(new Problem(read.problem.status, read.problem.message));
        request.inputs = read.typed;
        done();
      },
      // Not async: the handler's own promise, continued, is the answer.
      handler: (request, reply) =>
        steps.handler(request.inputs as Inputs, steps.context).then((answer) => {
          reply.code(answer.status);
          if (answer.headers !== undefined) reply.headers(answer.headers);
          if (answer.body === undefined) return reply.send();
          return reply.type(answer.contentType ?? JSON_CONTENT_TYPE).send(answer.body);
        }),
    });
  }
  app.setNotFoundHandler((request) => {
    throw routingRefusal(api, request.method, request.url);
  });
}

/** body: refused before it is read, or a client that waits for `100 Continue` invited now. */
function beforeBody(shape: BodyShape, bodyLimit: number): preParsingHookHandler {
  return (request, reply, payload, done) => {
    const refused = bodyRefusal(shape, request.headers, bodyLimit);
    if (refused !== undefined) return done(new Problem(refused.status, refused.message));
    const expect = request.headers.expect;
    if (typeof expect === "string" && expect.toLowerCase() === "100-continue") {
      reply.raw.writeContinue();
    }
    done(null, payload);
  };
}

/**
 * The operation a request was routed to: once its path was accepted, or, for a request refused
 * before that, if its route is an operation's and its path names the operation as the document
 * writes it; undefined otherwise.
 */
function routedOperationId(request: FastifyRequest): string | undefined {
  if (request.operationId !== undefined) return request.operationId;
  const steps = request.routeOptions.config.steps;
  return steps?.names(targetPath(request.url)) === true ? steps.id : undefined;
}
