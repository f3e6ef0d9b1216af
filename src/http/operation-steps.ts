// Each operation of the document compiled once, at start-up, into the steps a request to it
// takes; the runner (runner.ts) runs them in order. Nothing here runs per request.
import type { HTTPMethods } from "fastify";
import type { Operation } from "openapi-backend";
import type { SchemeCheck } from "../auth/outcome.ts";
import type { Api } from "../openapi/backend.ts";
import type { Serializer } from "../openapi/compiled-api.ts";
import { responseSchemas } from "../openapi/response-schemas.ts";
import type { ApiResponse } from "../openapi/responses.ts";
import { literalPartsOf } from "../text/path-template.ts";
import { type SchemeChecks, schemeChecksFor } from "./authentication.ts";
import type { BodyShape } from "./body.ts";
import { type Inputs, inputReader, type ReadInputs } from "./inputs.ts";
import { requiredScopes } from "./scopes.ts";

export type OperationHandler = (
  input: Inputs,
  context: { operation: Operation },
) => Promise<ApiResponse>;

export interface OperationSteps {
  id: string;
  /** Fastify's route: its method, and its path with `:name` for each template variable. */
  method: HTTPMethods;
  url: string;
  /** route: whether a path, as sent, names the operation as the document writes it. */
  names: (path: string) => boolean;
  /** authenticate: the schemes' checks, tried in order; undefined for an open operation. */
  checks: readonly SchemeCheck[] | undefined;
  /** scopes: what the caller's token must hold. */
  scopes: readonly string[];
  /** body: how it is read; undefined for an operation that takes none. */
  body: BodyShape | undefined;
  /** inputs: parameters and body read exactly and validated. */
  readInputs: ReadInputs;
  handler: OperationHandler;
  context: { operation: Operation };
  /** answer: the response schemas by status, and the build's serializer for each, if any. */
  responseSchemas: ReturnType<typeof responseSchemas>;
  serializer: ((status: string) => Serializer) | undefined;
}

export interface StepsOptions {
  api: Api;
  /** By operationId (src/handlers/index.ts). */
  handlers: Readonly<Record<string, unknown>>;
  schemes: SchemeChecks;
}

/** Every operation's steps; throws for an operation without a handler or a scheme's checker. */
export function compileOperations(options: StepsOptions): OperationSteps[] {
  const { api, handlers, schemes } = options;
  return api.operations.map((operation) => {
    const id = operation.operationId as string;
    const handler = handlers[id] as OperationHandler | undefined;
    if (handler === undefined) throw new Error(`no handler for operation ${id}`);
    const inputs = inputReader(operation, api.validatorsFor(operation));
    const { serializerFor } = api;
    return {
      id,
      method: operation.method.toUpperCase() as HTTPMethods,
      url: operation.path.replace(/\{([^{}/]+)\}/g, ":$1"),
      names: literalPartsOf(operation.path),
      checks: schemeChecksFor(operation, schemes),
      scopes: requiredScopes(operation),
      body: inputs.body,
      readInputs: inputs.read,
      handler,
      context: { operation },
      responseSchemas: responseSchemas(operation),
      // The build's serializers for those schemas, where it compiled them (compiled-api.ts).
      serializer: serializerFor === undefined ? undefined : (status) => serializerFor(id, status),
    };
  });
}
