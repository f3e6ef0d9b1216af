// The hot path: a Fastify route per operation of the document, templated paths included
// (/plants/{id} becomes /plants/:id), so openapi-backend need not search for the operation.
// Fastify matches more loosely than openapi-backend (it decodes %XX in every segment, for
// one), so a request takes the route only if openapi-backend would route its raw path to the
// same operation; anything else, and every other path, is routed by openapi-backend itself.
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import type { OpenAPIBackend, Operation } from "openapi-backend";
import { requestSlot } from "./request-slot.ts";

/** A request matched to its operation by the operation's own route. */
export interface Routed {
  operation: Operation;
  /**
   * The path parameters as openapi-backend would parse them from the raw path, when Fastify's
   * are exactly those (no %XX to decode, no empty segment); else openapi-backend parses them.
   */
  params?: Record<string, string>;
}

export type RoutedHandle = (
  request: FastifyRequest,
  reply: FastifyReply,
  routed: Routed | undefined,
) => unknown;

export function addOperationRoutes(
  app: FastifyInstance,
  api: OpenAPIBackend,
  handle: RoutedHandle,
): void {
  for (const operation of api.router.getOperations()) {
    app.route({
      method: operation.method.toUpperCase() as HTTPMethods,
      url: operation.path.replace(/\{([^{}/]+)\}/g, ":$1"),
      exposeHeadRoute: false,
      config: { operation },
      handler: (request, reply) => {
        const routed = routedOperation(api, request);
        found.set(request, routed);
        return handle(request, reply, routed);
      },
    });
  }
}

// What the route worked out, kept on the request for its metrics labels (src/app.ts).
const found = requestSlot<Routed | undefined>("routed operation");

/** routedOperation's answer for the request: as its route found it, or worked out now. */
export const routedOf = (api: OpenAPIBackend, request: FastifyRequest): Routed | undefined =>
  found.has(request) ? found.get(request) : routedOperation(api, request);

/**
 * The operation of the per-operation route that matched, if openapi-backend routes the
 * target's raw path there too: a template-free path must be the document's exactly, a
 * templated one is matched by openapi-backend's router.
 */
export function routedOperation(api: OpenAPIBackend, request: FastifyRequest): Routed | undefined {
  const { operation } = request.routeOptions.config as { operation?: Operation };
  if (operation === undefined) return undefined;
  const path = pathOf(request.url);
  if (!operation.path.includes("{")) {
    return path === operation.path ? { operation, params: {} } : undefined;
  }
  // Where the two routers could differ — Fastify decodes %XX in a parameter, ends the path at
  // a "#" (openapi-backend does not), and may take an empty segment for one — ask
  // openapi-backend (which compiles a pattern per operation, so only then); otherwise
  // Fastify's match, static routes first as openapi-backend's, stands.
  const params = request.params as Record<string, string>;
  let plain = !path.includes("%") && !path.includes("#");
  for (const name in params) if (params[name] === "") plain = false;
  if (plain) return { operation, params };
  const matched = api.router.matchOperation({ method: request.method, path, headers: {} });
  return matched === operation ? { operation } : undefined;
}

/** The path of a request target as received, without its query. */
function pathOf(target: string): string {
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}
