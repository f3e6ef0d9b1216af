// The body as the server reads it for an operation that declares application/json alone.
import { type BodyHeaders, exactBody, parseBody } from "../../src/http/body.ts";
import { JSON_ONLY } from "../../src/http/media-types.ts";
import type { Int64Location } from "../../src/text/int64-locations.ts";

export interface JsonShape {
  int64: readonly Int64Location[];
  described: string;
  required: boolean;
}

export const interpretBody = (headers: BodyHeaders, raw: Buffer, shape: JsonShape) =>
  exactBody(parseBody(headers, raw), {
    ...shape,
    accepted: JSON_ONLY,
    int64: new Map([["application/json", shape.int64]]),
  });
