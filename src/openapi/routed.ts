// openapi-backend's own handleRequest, for a request already routed to its operation: the
// same steps, in the same order, with the same registered handlers, but the request is parsed
// once (handleRequest parses it before routing, again after, and validation a third time) and
// the operation list is not searched. Fastify routes each path of the document that has no
// template here (src/app.ts); anything else still goes through handleRequest.
import type { Context, OpenAPIBackend, Operation, Request } from "openapi-backend";
import type { ApiResponse } from "../http/responses.ts";
import type { Call } from "./backend.ts";

type Handler = (context: Context, call: Call) => unknown;

export type RoutedHandler = (operation: Operation, call: Call) => Promise<ApiResponse>;

export function createRoutedHandler(api: OpenAPIBackend): RoutedHandler {
  const handler = (name: string): Handler | undefined => api.handlers[name] as Handler | undefined;
  const required = (name: string): Handler => {
    const found = handler(name);
    if (found === undefined) throw new Error(`openapi-backend has no ${name} handler`);
    return found;
  };
  // Fail closed, as strict handleRequest does: these must all exist.
  const unauthorized = required("unauthorizedHandler");

  return async (operation, call) => {
    const request: Request = call.request;
    const context = {
      api,
      operation,
      request: api.router.parseRequest(request, operation),
    } as unknown as Context;
    await handler("preRoutingHandler")?.(context, call);
    await handler("postRoutingHandler")?.(context, call);

    const requirements = operation.security ?? [];
    const results: Record<string, unknown> = {};
    await Promise.all(
      [...new Set(requirements.flatMap((requirement) => Object.keys(requirement)))].map(
        async (scheme) => {
          const check = api.securityHandlers[scheme] as Handler | undefined;
          results[scheme] = undefined;
          if (check === undefined) return;
          try {
            results[scheme] = await check(context, call);
          } catch (error) {
            results[scheme] = { error: error || new Error("security handler rejected") };
          }
        },
      ),
    );
    const satisfied = (scheme: string) => {
      const result = results[scheme];
      return (
        Boolean(result) && !(typeof result === "object" && (result as { error?: unknown }).error)
      );
    };
    const authorized = requirements.some((requirement) =>
      Object.keys(requirement).every(satisfied),
    );
    context.security = { ...results, authorized };
    await handler("postSecurityHandler")?.(context, call);
    if (!authorized && requirements.length > 0) {
      return (await unauthorized(context, call)) as ApiResponse;
    }

    // Validated as read, in postSecurityHandler (src/openapi/inputs.ts), as in handleRequest.
    await handler("preOperationHandler")?.(context, call);
    const operationHandler = required(operation.operationId ?? "");
    return (await operationHandler(context, call)) as ApiResponse;
  };
}
