// The operations of an OpenAPI document as the conformance checks walk them: method, template,
// a concrete path, and the parameters with $refs resolved. Read from whichever document is
// given (the YAML, or the one a deployment publishes), so a new operation is walked unchanged.
import { HTTP_METHODS } from "../openapi/document.ts";

export interface ParameterObject {
  $ref?: string;
  name?: string;
  in?: string;
  required?: boolean;
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}
export interface OperationObject {
  operationId: string;
  parameters?: ParameterObject[];
  security?: unknown[];
  responses: Record<string, unknown>;
  [extension: `x-${string}`]: unknown;
}
type PathItem = { parameters?: ParameterObject[] } & Partial<
  Record<(typeof HTTP_METHODS)[number], OperationObject>
>;

/** An OpenAPI document, as far as these checks read it. */
export interface OpenApiDocument {
  paths: Record<string, PathItem>;
  security?: unknown[];
  components?: {
    parameters?: Record<string, ParameterObject>;
    responses?: Record<string, unknown>;
    headers?: Record<string, unknown>;
    schemas?: Record<string, unknown>;
  };
}

export interface DocumentedOperation {
  operationId: string;
  /** Upper case. */
  method: string;
  /** The path as the document writes it, e.g. /plants/{id}. */
  template: string;
  /** The template with each parameter replaced by its first example (or 1). */
  path: string;
  operation: OperationObject;
  /** Path-level and operation-level parameters, $refs resolved. */
  parameters: ParameterObject[];
}

export const asDocument = (doc: unknown): OpenApiDocument => doc as OpenApiDocument;

export function parameterResolver(doc: OpenApiDocument) {
  return (parameter: ParameterObject): ParameterObject =>
    parameter.$ref === undefined
      ? parameter
      : (doc.components?.parameters?.[parameter.$ref.split("/").at(-1) ?? ""] ?? {});
}

function concretePath(template: string, parameters: readonly ParameterObject[]): string {
  return template.replace(/\{([^{}/]+)\}/g, (_whole, name: string) => {
    const parameter = parameters.find((p) => p.in === "path" && p.name === name);
    const example = parameter?.example ?? Object.values(parameter?.examples ?? {})[0]?.value;
    return encodeURIComponent(String(example ?? 1));
  });
}

export function operationsOf(doc: OpenApiDocument): DocumentedOperation[] {
  const resolve = parameterResolver(doc);
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    // In the order the document writes them, which is the order its examples run in.
    Object.keys(item).flatMap((key) => {
      const method = HTTP_METHODS.find((known) => known === key);
      const operation = method === undefined ? undefined : item[method];
      if (method === undefined) return [];
      if (operation === undefined) return [];
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(resolve);
      return [
        {
          operationId: operation.operationId,
          method: method.toUpperCase(),
          template,
          path: concretePath(template, parameters),
          operation,
          parameters,
        },
      ];
    }),
  );
}

/** The security requirements that apply to the operation (its own, else the document's). */
export const securityOf = (doc: OpenApiDocument, { operation }: DocumentedOperation): unknown[] =>
  operation.security ?? doc.security ?? [];

/** The scopes the operation's x-required-scopes names. */
export const scopesOf = ({ operation }: DocumentedOperation): string[] =>
  (operation["x-required-scopes"] as string[] | undefined) ?? [];
