// The request body: what the content-type parser makes of the bytes (parseBody: the content
// type the operation declares and the codings, UTF-8, JSON syntax), then, in the operation's
// own step once the caller is authenticated, the exact reading of its int64s (exactBody). A
// problem is returned, not thrown, and answered as a 400/415 once the route knows the operation.

import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import { integerFromLiteral, type JsonStep, literalAt, validationStandIn } from "../text/int64.ts";
import { type Int64Location, numbersAt, replacedAt } from "../text/int64-locations.ts";
import {
  type AcceptedMedia,
  type BodyProblem,
  JSON_ONLY,
  matchContentType,
} from "./media-types.ts";

/** The body as the parser leaves it on the request. */
export type ParsedBody =
  /** `type`: the declared media type the Content-Type named. */
  | { kind: "json"; type: string; text: string; value: unknown }
  /** No bytes at all: the operation says whether that is allowed. */
  | { kind: "empty" }
  | { kind: "problem"; problem: BodyProblem };

export type Body =
  | {
      ok: true;
      /** What is validated: the JSON value, each int64 as a number on the same side of its limits. */
      forValidation: unknown;
      /** What the handler gets once that is valid: the same value, each int64 as an exact bigint. */
      typed: unknown;
    }
  | { ok: false; problem: BodyProblem };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The request headers that say what the body bytes are. */
export interface BodyHeaders {
  "content-type"?: string | undefined;
  "content-encoding"?: string | undefined;
  "transfer-encoding"?: string | undefined;
}

/** How to read one operation's body, from its requestBody in the document. */
export interface BodyShape {
  /** The JSON media types it declares. */
  accepted: AcceptedMedia;
  /** Where the schema of each declared type puts int64s. */
  int64: ReadonlyMap<string, readonly Int64Location[]>;
  /** "a JSON object with id and name", when the schema says that much: completes "a request
   * body is required: …". */
  described: string | undefined;
  /** Whether the document requires one (requestBody.required). */
  required: boolean;
}

/** The 400 for a required body that was not sent. */
export const missingBody = (shape: BodyShape): BodyProblem => ({
  status: 400,
  message:
    shape.described === undefined
      ? "a request body is required"
      : `a request body is required: ${shape.described}`,
});

/** Whether the request announces a body: a non-zero Content-Length, or any Transfer-Encoding. */
export const announcesBody = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"] !== "0");

/**
 * Before a body is read: none sent where one is required is a 400 whatever its Content-Type
 * says, and a declared length over the limit a 413.
 */
export function bodyRefusal(
  shape: BodyShape,
  headers: Record<string, string | string[] | undefined>,
  bodyLimit: number,
): BodyProblem | undefined {
  if (shape.required && !announcesBody(headers)) return missingBody(shape);
  if (Number(headers["content-length"]) > bodyLimit) {
    return { status: 413, message: `the request body is larger than ${bodyLimit} bytes` };
  }
  return undefined;
}

/** The bytes as JSON, or why they are not: for the content-type parser, any content type. */
export function parseBody(
  headers: BodyHeaders,
  raw: Buffer,
  accepted: AcceptedMedia = JSON_ONLY,
): ParsedBody {
  if (raw.length === 0) return { kind: "empty" };
  const type = matchContentType(headers["content-type"], accepted);
  if (typeof type !== "string") return { kind: "problem", problem: type };
  const codingProblem = checkCodings(headers);
  if (codingProblem !== undefined) return { kind: "problem", problem: codingProblem };
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return bodyProblem(400, "the request body is not valid UTF-8");
  }
  try {
    return { kind: "json", type, text, value: JSON.parse(text) };
  } catch {
    // Not the parser's own words: they change from one Node release to the next, and the
    // message is part of the contract (an example in the document).
    return bodyProblem(400, "the request body is not valid JSON");
  }
}

/** The parsed body read for an operation of `shape`: its int64s exact, or the problem. */
export function exactBody(parsed: ParsedBody | undefined, shape: BodyShape): Body {
  if (parsed === undefined || parsed.kind === "empty") {
    return shape.required
      ? { ok: false, problem: missingBody(shape) }
      : { ok: true, forValidation: undefined, typed: undefined };
  }
  if (parsed.kind === "problem") return { ok: false, problem: parsed.problem };
  const { text, value } = parsed;
  // A loop rather than flatMap, which alone cost ten times the lookups on a one-id body.
  const paths: JsonStep[][] = [];
  for (const location of shape.int64.get(parsed.type) ?? []) {
    for (const path of numbersAt(value, location)) paths.push(path);
  }
  if (paths.length === 0) return { ok: true, forValidation: value, typed: value };
  const exact = exactReader(text, paths.length);
  if (paths.length <= FEW) {
    // The usual body (one id): replace along the path, copying the few containers on the way.
    let forValidation = value;
    let typed = value;
    for (const path of paths) {
      const parsedNumber = readAt(value, path) as number;
      const integer = exact(path, parsedNumber);
      typed = replacedAt(typed, path, integer ?? parsedNumber);
      const standIn = validationStandIn(integer);
      if (standIn !== parsedNumber) forValidation = replacedAt(forValidation, path, standIn);
    }
    return { ok: true, forValidation, typed };
  }
  // Many (int64s in an array): one copy each, changed in place, so the work stays linear.
  const typed = structuredClone(value);
  const forValidation = structuredClone(value);
  for (const path of paths) {
    const parsedNumber = readAt(value, path) as number;
    const integer = exact(path, parsedNumber);
    setAt(typed, path, integer ?? parsedNumber);
    setAt(forValidation, path, validationStandIn(integer));
  }
  return { ok: true, forValidation, typed };
}

const bodyProblem = (status: BodyProblem["status"], message: string): ParsedBody => ({
  kind: "problem",
  problem: { status, message },
});

/** Up to this many int64s in a body, each is replaced by copying its path. */
const FEW = 8;

/**
 * Reads the exact value of the number JSON.parse read as `parsed` at a path, or null if it is
 * not an integer. The common case needs no second reading: JSON.parse rounds correctly, so a
 * literal of at most 15 digits (nowhere in the text are there 16 digits and dots in a row) that
 * gave a safe integer was that integer exactly. A negative exponent could have underflowed a
 * fraction to 0 (1e-400), so text with one takes the exact path too, as does everything else.
 * The text is scanned for that once per body; with many int64s their literals come from one
 * lossless parse rather than a scan of the text each.
 */
function exactReader(
  text: string,
  count: number,
): (path: readonly JsonStep[], parsed: number) => bigint | null {
  const mayNeedExact = mayNeedExactReading(text);
  let literals: unknown;
  const literal = (path: readonly JsonStep[]): string | undefined => {
    if (count <= FEW) return literalAt(text, path);
    literals ??= losslessOrNull(text);
    const found = literals === null ? undefined : readAt(literals, path);
    return isLosslessNumber(found) ? found.value : literalAt(text, path);
  };
  return (path, parsed) => {
    if (Number.isSafeInteger(parsed) && !mayNeedExact) return BigInt(parsed);
    return integerFromLiteral(literal(path) ?? "");
  };
}

/** The text parsed with every number kept as its literal; null if that parser cannot (depth). */
function losslessOrNull(text: string): unknown {
  try {
    return parseLossless(text);
  } catch {
    return null;
  }
}

function setAt(value: unknown, path: readonly JsonStep[], replacement: unknown): void {
  const parent = readAt(value, path.slice(0, -1)) as Record<string, unknown>;
  parent[String(path.at(-1))] = replacement;
}

function readAt(value: unknown, path: readonly JsonStep[]): unknown {
  let node = value;
  for (const step of path) node = (node as Record<string, unknown>)[String(step)];
  return node;
}

/**
 * Whether the text has 16 digits and dots in a row, or a negative exponent ("e-", "E-"): one
 * pass over its characters, several times faster than the equivalent pattern on a short body.
 */
export function mayNeedExactReading(text: string): boolean {
  let run = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if ((code >= 0x30 && code <= 0x39) || code === 0x2e) {
      run += 1;
      if (run >= 16) return true;
    } else {
      run = 0;
      if ((code === 0x65 || code === 0x45) && text.charCodeAt(at + 1) === 0x2d) return true;
    }
  }
  return false;
}

// The bytes are read as they arrive: a compressed body would be stored as if it were text.
function checkCodings(headers: BodyHeaders): BodyProblem | undefined {
  // The usual request: neither header (a fast path, as this runs on every body).
  if (headers["content-encoding"] === undefined && headers["transfer-encoding"] === undefined) {
    return undefined;
  }
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

/** A body that cannot be used, and why. */
export const problem = (status: BodyProblem["status"], message: string): Body => ({
  ok: false,
  problem: { status, message },
});
