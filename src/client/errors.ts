// What a call that did not succeed throws: the status and the Error body the server sent, or
// that the answer was too large to read.
import type { components } from "../../generated/plants.ts";

export type ErrorBody = components["schemas"]["Error"];

export class PlantStoreError extends Error {
  override name = "PlantStoreError";
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The answer's Error body (`error` repeats the status, `message` says why). */
    readonly body: ErrorBody,
    /** The answer's headers (Retry-After, RateLimit, WWW-Authenticate, …). */
    readonly headers: Headers,
  ) {
    super(`${status}: ${body.message}`);
  }
}

/** An answer longer than the client's bound (ClientOptions.maxAnswerBytes): not read. */
export class AnswerTooLargeError extends Error {
  override name = "AnswerTooLargeError";
  constructor(readonly limit: number) {
    super(`the answer is larger than ${limit} bytes; it was not read`);
  }
}
