// The request bodies an operation accepts, by Content-Type: the JSON media types its
// requestBody declares (application/json, and any +json type such as RFC 7396's
// application/merge-patch+json), all read as JSON. A header is read by fast-content-type-parse
// (RFC 9110, one linear scan), after a cap on its length.
import { safeParse } from "fast-content-type-parse";

/** Why a body is refused, as the body step answers it. */
export type BodyProblem = { status: 400 | 413 | 415; message: string };

export interface AcceptedMedia {
  /** The declared types, lower case, without parameters, in the document's order. */
  types: readonly string[];
  /** How 415 names them: "application/json or application/merge-patch+json". */
  said: string;
  /** The usual spellings of a header (a type, alone or with charset=utf-8) to the type. */
  exact: ReadonlyMap<string, string>;
}

export function acceptedMedia(types: readonly string[]): AcceptedMedia {
  const exact = new Map<string, string>();
  for (const type of types) {
    exact.set(type, type);
    exact.set(`${type}; charset=utf-8`, type);
  }
  const said =
    types.length <= 1 ? types.join("") : `${types.slice(0, -1).join(", ")} or ${types.at(-1)}`;
  return { types, said, exact };
}

/** What an operation that says nothing else accepts. */
export const JSON_ONLY = acceptedMedia(["application/json"]);

// Longer than any sensible media type; refused before it is even split.
const MAX_CONTENT_TYPE_LENGTH = 256;

/** The declared type a Content-Type header names, or why it is refused (415). */
export function matchContentType(
  header: string | undefined,
  accepted: AcceptedMedia,
): string | BodyProblem {
  // The usual spellings, answered without splitting (this runs on every body).
  const known = header === undefined ? undefined : accepted.exact.get(header);
  if (known !== undefined) return known;
  if (header === undefined || header.trim() === "") {
    return { status: 415, message: `a Content-Type header is required: ${accepted.said}` };
  }
  if (header.length > MAX_CONTENT_TYPE_LENGTH) {
    return {
      status: 415,
      message: `the Content-Type header is longer than ${MAX_CONTENT_TYPE_LENGTH} characters; it must be ${accepted.said}`,
    };
  }
  const { type, parameters } = safeParse(header);
  if (type === "") {
    return {
      status: 415,
      message: `the Content-Type header is not a valid media type; it must be ${accepted.said}`,
    };
  }
  const declared = accepted.types.find((t) => t === type);
  if (declared === undefined) {
    return { status: 415, message: `the content type must be ${accepted.said}, got "${type}"` };
  }
  // The parser keeps the first of repeated parameters; a proxy may keep the last.
  const lower = header.toLowerCase();
  const first = lower.indexOf("charset");
  if (first !== -1 && lower.indexOf("charset", first + 1) !== -1) {
    return { status: 415, message: "the Content-Type header names a charset more than once" };
  }
  const charset = parameters["charset"]?.toLowerCase();
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    return { status: 415, message: `JSON must be sent as UTF-8, got charset "${charset}"` };
  }
  return declared;
}
