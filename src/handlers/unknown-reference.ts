// The answer to a request whose body member names no stored row, worded from the document's
// x-references (src/openapi/references.ts), so that no handler words its own.
import { Problem } from "../http/errors.ts";
import { REFERENCE_STATUS, referenceMessage, requestReferences } from "../openapi/references.ts";

/**
 * The refusal of a request whose body member at `location` names no stored row, worded from
 * the document: "`parentId` names no stored parents row (9)". Throws when the document does not
 * mark that member, so a handler cannot answer for a reference the document does not state.
 */
export function unknownReference(
  operation: unknown,
  location: readonly string[],
  value: string | number | bigint,
): Problem {
  const member = location.join(".");
  const reference = requestReferences(operation).find(
    (candidate) => candidate.location.join(".") === member,
  );
  if (reference === undefined) {
    const id = (operation as { operationId?: string }).operationId ?? "the operation";
    throw new Error(`${id}: the body member ${member} has no x-references in the document`);
  }
  return new Problem(REFERENCE_STATUS, referenceMessage(reference, value));
}
