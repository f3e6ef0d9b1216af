// What a call that did not succeed throws: the status and the Error body the server sent.
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
