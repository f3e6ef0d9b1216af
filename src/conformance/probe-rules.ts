// What a schema-driven probe may be answered, for the conformance run and the fuzz suite alike:
// an invalid request is a 400; a valid one never a 5xx nor a 400, and REFERENCE_STATUS only for
// a member the document marks `x-references` (made at random, it names no stored row).
import { isReferenceMessage, REFERENCE_STATUS, type Reference } from "../openapi/references.ts";
import type { FuzzRequest } from "./fuzz-request.ts";

/** Why the answer to `request` is wrong, or undefined when the document allows it. */
export function unexpectedAnswer(
  request: Pick<FuzzRequest, "invalid">,
  answer: { status: number; message: string | undefined },
  references: readonly Reference[],
): string | undefined {
  if (answer.status >= 500) return `a probe is answered ${answer.status}`;
  if (request.invalid !== undefined) {
    return answer.status === 400
      ? undefined
      : `one invalid part (${request.invalid}) is answered ${answer.status}, not 400`;
  }
  if (answer.status === 400) return "valid input is refused as invalid (400)";
  if (answer.status !== REFERENCE_STATUS) return undefined;
  return isReferenceMessage(references, answer.message ?? "")
    ? undefined
    : `valid input is refused as invalid (${REFERENCE_STATUS}), not for a member marked x-references`;
}
