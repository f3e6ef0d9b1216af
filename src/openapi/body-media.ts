// The request bodies an operation declares, read from its requestBody.content: each JSON media
// type (application/json, or any +json type such as application/merge-patch+json) with its
// schema. A type the server cannot read as JSON stops start-up, so a body the document promises
// is never refused or read wrongly at run time.
import type { Operation } from "openapi-backend";
import { essence, isJsonMediaType } from "../text/media-type.ts";

export interface BodyMedia {
  /** The media type, lower case, without parameters. */
  type: string;
  /** Its Media Type Object, as the (dereferenced) document gives it. */
  media: { schema?: unknown };
}

/** The JSON media types of `operation`'s body, in the document's order; none without a body. */
export function bodyMedia(operation: Operation): BodyMedia[] {
  const requestBody = operation.requestBody as
    | { content?: Record<string, { schema?: unknown }> }
    | undefined;
  if (requestBody === undefined) return [];
  const id = operation.operationId ?? `${operation.method} ${operation.path}`;
  const found: BodyMedia[] = [];
  for (const [key, media] of Object.entries(requestBody.content ?? {})) {
    const type = essence(key);
    if (!isJsonMediaType(type)) {
      throw new Error(
        `${id}: request bodies of type ${key} are not supported: only JSON (application/json, or a +json type)`,
      );
    }
    if (!found.some((known) => known.type === type)) found.push({ type, media });
  }
  if (found.length === 0) throw new Error(`${id}: its requestBody declares no media type`);
  return found;
}
