// What tests take from openapi/plants.yaml instead of repeating it: its paths, the methods on
// each, and a concrete path for each template, so an operation added to the document is
// routed, refused and checked by the same tests without editing them.

import {
  asDocument,
  type DocumentedOperation,
  operationsOf,
  parameterResolver,
} from "../../src/conformance/operations.ts";
import { loadDocument } from "../../src/openapi/document.ts";

export type { DocumentedOperation, OperationObject } from "../../src/conformance/operations.ts";

const document = asDocument(loadDocument());

export const resolveParameter = parameterResolver(document);

export const documentedOperations = (): DocumentedOperation[] => operationsOf(document);

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
