// A Fastify route per operation of the document, built from openapi-backend's list of them:
// Fastify routes it, and per operation its hooks run in this order —
//   onRequest      the route's shape (an empty path parameter is no match; a body sent to an
//                  operation that takes none is refused), then authentication, rate limit and
//                  scopes (src/openapi/security.ts): all before a byte of the body is read,
//                  run as the last step of the one onRequest hook (src/http/gate.ts);
//   preParsing     a declared body over the limit is refused, else `100 Continue` is sent;
//   (parsing)      the content-type parser (src/http/body-parsers.ts), for the JSON media types
//                  the operation declares;
//   preValidation  parameters and body read exactly and checked by openapi-backend's
//                  compiled validators (src/openapi/inputs.ts);
//   handler        the operation's typed handler; its answer is written by the serializer
//                  Fastify compiles from the document's response schema for its status.
// A request no route takes is answered 404 or 405 as openapi-backend routes it (routing.ts).
import type {
  FastifyInstance,
  FastifyRequest,
  HTTPMethods,
  onRequestHookHandler,
  preParsingHookHandler,
} from "fastify";
import type { Operation } from "openapi-backend";
import { type BodyShape, missingBody } from "../http/body.ts";
import { Problem } from "../http/errors.ts";
import { targetPath } from "../http/gate.ts";
import type { AcceptedMedia } from "../http/media-types.ts";
import { type ApiResponse, JSON_CONTENT_TYPE } from "../http/responses.ts";
import type { Api } from "./backend.ts";
import { type Inputs, inputReader } from "./inputs.ts";
import { responseSchemas } from "./response-schemas.ts";
import { routingRefusal } from "./routing.ts";
import { authenticationFor, type SecurityOptions } from "./security.ts";

export interface RouteOptions {
  api: Api;
  /** By operationId (src/handlers/index.ts). */
  handlers: Readonly<Record<string, unknown>>;
  security: SecurityOptions;
  bodyLimit: number;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The operation the request was routed to, once its route has accepted the path. */
    operationId: string | undefined;
    /** What the operation's handler gets, once read and valid (preValidation). */
    inputs: Inputs | undefined;
    /** The media types of the body the operation takes, once its route has accepted the path. */
    bodyMedia: AcceptedMedia | undefined;
  }
  interface FastifyContextConfig {
    /** The operation a route serves, and whether a path names it as written. */
    operation?: { id: string; names: (path: string) => boolean };
  }
}

/**
 * The operation a request was routed to: once its route accepted it, or, for a request refused
 * before its route's first step, if its route is an operation's and its path names the
 * operation as the document writes it (literalPartsOf, below); undefined otherwise.
 */
export function routedOperationId(request: FastifyRequest): string | undefined {
  if (request.operationId !== undefined) return request.operationId;
  const routed = request.routeOptions.config.operation;
  return routed?.names(targetPath(request.url)) === true ? routed.id : undefined;
}

export function addOperationRoutes(app: FastifyInstance, options: RouteOptions): void {
  const { api, handlers, security, bodyLimit } = options;
  app.decorateRequest("operationId", undefined);
  app.decorateRequest("inputs", undefined);
  app.decorateRequest("bodyMedia", undefined);
  for (const operation of api.operations) {
    const operationId = operation.operationId as string;
    const handler = handlers[operationId] as OperationHandler | undefined;
    if (handler === undefined) throw new Error(`no handler for operation ${operationId}`);
    const inputs = inputReader(operation, api.validatorsFor(operation));
    const context = { operation };
    const authenticate = authenticationFor(operation, security);
    const names = literalPartsOf(operation.path);
    app.route({
      method: operation.method.toUpperCase() as HTTPMethods,
      url: operation.path.replace(/\{([^{}/]+)\}/g, ":$1"),
      config: {
        operation: { id: operationId, names },
        // Run by the gate (src/http/gate.ts), so that a request meets one onRequest hook.
        onRequest: routeShape(api, operationId, names, inputs.body?.accepted, authenticate),
      },
      bodyLimit,
      schema: { response: responseSchemas(operation) },
      // The build's serializers for those schemas, where it compiled them (compiled-api.ts).
      ...(api.serializerFor === undefined
        ? {}
        : {
            serializerCompiler: ({ httpStatus }: { httpStatus?: string }) =>
              (api.serializerFor as NonNullable<Api["serializerFor"]>)(
                operationId,
                String(httpStatus),
              ),
          }),
      ...(inputs.body === undefined ? {} : { preParsing: beforeBody(inputs.body, bodyLimit) }),
      preValidation: (request, _reply, done) => {
        const read = inputs.read({
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
        handler(request.inputs as Inputs, context).then((answer) => {
          reply.code(answer.status);
          if (answer.headers !== undefined) reply.headers(answer.headers);
          if (answer.body === undefined) return reply.send();
          return reply.type(answer.contentType ?? JSON_CONTENT_TYPE).send(answer.body);
        }),
    });
  }
}

type OperationHandler = (input: Inputs, context: { operation: Operation }) => Promise<ApiResponse>;

/**
 * The route's first step: a path the route took that the document's template does not name as
 * written is no match (literalPartsOf, below), and a body sent to an operation that takes none is
 * refused before anyone reads it (the connection closes); then the operation's
 * authentication, in the same hook.
 */
function routeShape(
  api: Api,
  operationId: string,
  names: (path: string) => boolean,
  bodyMedia: AcceptedMedia | undefined,
  authenticate: onRequestHookHandler | undefined,
): onRequestHookHandler {
  return function (this: FastifyInstance, request, reply, done) {
    if (!names(targetPath(request.url))) {
      return done(routingRefusal(api, request.method, request.url));
    }
    request.operationId = operationId;
    request.bodyMedia = bodyMedia;
    if (bodyMedia === undefined && hasBody(request.headers)) {
      return done(new Problem(400, "a request body is not accepted: this operation takes none"));
    }
    if (authenticate === undefined) return done();
    authenticate.call(this, request, reply, done);
  };
}

/** Whether the request announces a body: a non-zero Content-Length, or any Transfer-Encoding. */
const hasBody = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"] !== "0");

/**
 * Before a body is read: none sent where one is required is a 400 whatever its Content-Type
 * says, and a declared length over the limit a 413; otherwise a client that waits for
 * `100 Continue` (Expect) is invited now, once the route and its credentials are accepted.
 */
function beforeBody(shape: BodyShape, bodyLimit: number): preParsingHookHandler {
  return (request, reply, payload, done) => {
    const declared = Number(request.headers["content-length"]);
    if (shape.required && !hasBody(request.headers)) {
      const { status, message } = missingBody(shape);
      return done(new Problem(status, message));
    }
    if (declared > bodyLimit) {
      return done(new Problem(413, `the request body is larger than ${bodyLimit} bytes`));
    }
    const expect = request.headers.expect;
    if (typeof expect === "string" && expect.toLowerCase() === "100-continue") {
      reply.raw.writeContinue();
    }
    done(null, payload);
  };
}

// The route's path check: whether a request's path, as sent, has the literal parts of an operation's path template
// exactly: Fastify's router decodes %XX before it matches (/pl%61nts finds /plants) and takes
// an empty segment for a parameter (/plants/ finds /plants/{id}); the document's paths are
// matched as written, and a template variable stands for one or more characters.
/** The check for one template, built once; linear in the path's length, no copies. */
export function literalPartsOf(template: string): (path: string) => boolean {
  if (!template.includes("{")) return (path) => path === template;
  const segments = template.split("/").map((segment) => {
    const open = segment.indexOf("{");
    return open === -1
      ? { prefix: segment, suffix: undefined }
      : { prefix: segment.slice(0, open), suffix: segment.slice(segment.lastIndexOf("}") + 1) };
  });
  return (path) => {
    let from = 0;
    for (const [at, { prefix, suffix }] of segments.entries()) {
      const slash = path.indexOf("/", from);
      const last = at === segments.length - 1;
      if (last !== (slash === -1)) return false;
      const end = last ? path.length : slash;
      if (suffix === undefined) {
        if (end - from !== prefix.length || !path.startsWith(prefix, from)) return false;
      } else if (
        end - from <= prefix.length + suffix.length ||
        !path.startsWith(prefix, from) ||
        !path.endsWith(suffix, end)
      ) {
        return false;
      }
      from = end + 1;
    }
    return true;
  };
}
