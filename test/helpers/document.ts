// What tests take from openapi/plants.yaml instead of repeating it: its paths, the methods on
// each, and a concrete path for each template, so an operation added to the document is
// routed, refused and checked by the same tests without editing them.
import { HTTP_METHODS, loadDocument } from "../../src/openapi/document.ts";

interface ParameterObject {
  $ref?: string;
  name?: string;
  in?: string;
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

const document = loadDocument() as unknown as {
  paths: Record<string, PathItem>;
  components?: { parameters?: Record<string, ParameterObject> };
};

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

export const resolveParameter = (parameter: ParameterObject): ParameterObject =>
  parameter.$ref === undefined
    ? parameter
    : (document.components?.parameters?.[parameter.$ref.split("/").at(-1) ?? ""] ?? {});

function concretePath(template: string, parameters: readonly ParameterObject[]): string {
  return template.replace(/\{([^{}/]+)\}/g, (_whole, name: string) => {
    const parameter = parameters.find((p) => p.in === "path" && p.name === name);
    const example = parameter?.example ?? Object.values(parameter?.examples ?? {})[0]?.value;
    return encodeURIComponent(String(example ?? 1));
  });
}

export function documentedOperations(): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    // In the order the document writes them, which is the order its examples run in.
    Object.keys(item).flatMap((key) => {
      const method = HTTP_METHODS.find((known) => known === key);
      const operation = method === undefined ? undefined : item[method];
      if (method === undefined) return [];
      if (operation === undefined) return [];
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(
        resolveParameter,
      );
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

/**
 * Each documented path (concrete) with the methods the server answers on it, sorted: the
 * document's, and HEAD wherever it has GET (RFC 9110 §9.3.2).
 */
export function documentedPaths(): { template: string; path: string; methods: string[] }[] {
  const byTemplate = new Map<string, { template: string; path: string; methods: string[] }>();
  for (const { template, path, method } of documentedOperations()) {
    const entry = byTemplate.get(template) ?? { template, path, methods: [] };
    entry.methods.push(method);
    if (method === "GET") entry.methods.push("HEAD");
    byTemplate.set(template, entry);
  }
  return [...byTemplate.values()].map((entry) => ({ ...entry, methods: entry.methods.sort() }));
}
