// Turns the raw request body into a JSON object for validation, or into the reason it
// cannot be one. Called only for routed, authenticated requests (src/openapi/backend.ts);
// a problem is returned, not thrown, and answered by openapi-backend's validationFail.

import { INT64_MAX, INT64_MIN, integerFromLiteral, topLevelIdLiteral } from "./int64.ts";
import { jsonTypeOf, withArticle } from "./json-type.ts";

export type BodyProblem = { status: 400 | 413 | 415; message: string };

export type Body =
  | {
      ok: true;
      /** What openapi-backend validates; `id` is replaced by a stand-in, see `standInForId`. */
      forValidation: Readonly<Record<string, unknown>>;
      /** The exact id when the body's `id` is a number literal. */
      exactId: bigint | undefined;
    }
  | { ok: false; problem: BodyProblem };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The request headers that say what the body bytes are. */
export interface BodyHeaders {
  "content-type"?: string | undefined;
  "content-encoding"?: string | undefined;
  "transfer-encoding"?: string | undefined;
}

export function interpretBody(headers: BodyHeaders, raw: Buffer | undefined): Body {
  if (raw === undefined || raw.length === 0) {
    return problem(400, "a request body is required: a JSON object with id and name");
  }
  const typeProblem = checkContentType(headers["content-type"]) ?? checkCodings(headers);
  if (typeProblem !== undefined) return { ok: false, problem: typeProblem };

  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return problem(400, "the request body is not valid UTF-8");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? `: ${error.message}` : "";
    return problem(400, `the request body is not valid JSON${reason}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return problem(
      400,
      `the request body must be a JSON object, got ${withArticle(jsonTypeOf(value))}`,
    );
  }
  const object = value as Record<string, unknown>;
  const id = object["id"];
  if (typeof id !== "number") {
    return { ok: true, forValidation: object, exactId: undefined };
  }
  // The common case, without reading the literal again: JSON.parse rounds correctly, so a
  // literal of at most 15 digits (nowhere in the text are there 16 digits and dots in a
  // row) that gave a safe integer was that integer exactly. A negative exponent could have underflowed a fraction
  // to 0 (1e-400), so text with one takes the exact path too, as does everything else.
  if (Number.isSafeInteger(id) && !MAY_NEED_EXACT_READING.test(text)) {
    return { ok: true, forValidation: object, exactId: BigInt(id) };
  }
  const exact = integerFromLiteral(topLevelIdLiteral(text) ?? "");
  return {
    ok: true,
    forValidation: { ...object, id: standInForId(exact) },
    exactId: exact ?? undefined,
  };
}

/**
 * A double that falls on the same side of openapi-backend's int64 check as the exact
 * value, so that the validator still decides, but on the exact value: 9223372036854775807
 * rounds to 2^63 (which that check rejects) and -9223372036854775809 rounds to -2^63
 * (which it accepts).
 */
function standInForId(exact: bigint | null): number {
  if (exact === null) return 0.5; // a fraction JSON.parse rounded away, e.g. 1.0000000000000000001
  if (exact > INT64_MAX) return 2 ** 64;
  if (exact < INT64_MIN) return -(2 ** 64);
  return Math.min(Number(exact), LARGEST_DOUBLE_BELOW_2_63);
}

const LARGEST_DOUBLE_BELOW_2_63 = 2 ** 63 - 1024;

const MAY_NEED_EXACT_READING = /[\d.]{16}|[eE]-/;

// The bytes are read as they arrive: a compressed body would be stored as if it were text.
function checkCodings(headers: BodyHeaders): BodyProblem | undefined {
  const content = (headers["content-encoding"] ?? "").trim().toLowerCase();
  if (content !== "" && content !== "identity") {
    return {
      status: 415,
      message: `compressed bodies are not accepted (Content-Encoding: ${content})`,
    };
  }
  const transfer = (headers["transfer-encoding"] ?? "")
    .toLowerCase()
    .split(",")
    .map((c) => c.trim());
  const unknown = transfer.filter((coding) => coding !== "" && coding !== "chunked");
  if (unknown.length > 0) {
    return {
      status: 415,
      message: `transfer codings other than chunked are not accepted (${unknown.join(", ")})`,
    };
  }
  return undefined;
}

// Longer than any sensible application/json header; refused before it is even split.
const MAX_CONTENT_TYPE_LENGTH = 256;

/** Linear in the header's length: split on ";" and "=", no pattern matching. */
function checkContentType(header: string | undefined): BodyProblem | undefined {
  if (header === undefined || header.trim() === "") {
    return { status: 415, message: "a Content-Type header is required: application/json" };
  }
  if (header.length > MAX_CONTENT_TYPE_LENGTH) {
    return {
      status: 415,
      message: `the Content-Type header is longer than ${MAX_CONTENT_TYPE_LENGTH} characters; it must be application/json`,
    };
  }
  const [type = "", ...params] = header.split(";").map((part) => part.trim());
  if (type.toLowerCase() !== "application/json") {
    return { status: 415, message: `the content type must be application/json, got "${type}"` };
  }
  for (const param of params) {
    const [name = "", rawValue = ""] = param.split("=").map((part) => part.trim());
    const quoted = rawValue.length >= 2 && rawValue.startsWith('"') && rawValue.endsWith('"');
    const value = (quoted ? rawValue.slice(1, -1) : rawValue).toLowerCase();
    if (name.toLowerCase() === "charset" && value !== "utf-8" && value !== "utf8") {
      return { status: 415, message: `JSON must be sent as UTF-8, got charset "${rawValue}"` };
    }
  }
  return undefined;
}

/** A body that cannot be used, and why. */
export const problem = (status: BodyProblem["status"], message: string): Body => ({
  ok: false,
  problem: { status, message },
});
