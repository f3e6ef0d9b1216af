// Requests made from the schemas of openapi/plants.yaml, by the conformance engine
// (src/conformance/schema-values.ts).
import { type FuzzRequest, schemaArbitraries } from "../../src/conformance/schema-values.ts";
import { loadDocument } from "../../src/openapi/document.ts";
import {
  isReferenceMessage,
  REFERENCE_STATUS,
  type Reference,
} from "../../src/openapi/references.ts";

export type { FuzzRequest };

// The fuzz suite runs on the project's own document: its patterns are compiled as they are.
export const { validValue, invalidValue, fuzzRequest } = schemaArbitraries(
  loadDocument(),
  (source) => new RegExp(source, "u"),
);

/**
 * Why an answer to a fuzzed request is wrong, or undefined when it is one the document allows:
 * an invalid request is a 400; a valid one never is, and may be refused REFERENCE_STATUS only
 * for a member the document marks `x-references` (made at random, it names no stored row).
 */
export function unexpectedAnswer(
  request: FuzzRequest,
  answer: { status: number; message: string | undefined },
  references: readonly Reference[],
): string | undefined {
  if (request.invalid !== undefined) {
    return answer.status === 400 ? undefined : `${answer.status} for an invalid request, not 400`;
  }
  if (answer.status === 400) return "400 for a valid request";
  if (answer.status !== REFERENCE_STATUS) return undefined;
  return isReferenceMessage(references, answer.message ?? "")
    ? undefined
    : `${REFERENCE_STATUS} for a valid request, not for a member marked x-references`;
}
