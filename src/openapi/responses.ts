// The one shape every answer takes before it is sent, typed from the contract.
import type { components, operations } from "../../generated/plants.ts";

export type ErrorBody = components["schemas"]["Error"];
export type PlantBody = components["schemas"]["Plant"];

export interface ApiResponse {
  status: number;
  /**
   * A JSON body as the document's schemas type it (int64 as bigint, written exactly), or the
   * text or bytes of a non-JSON answer (`/metrics`, `/docs`); none for a bodiless answer (204).
   */
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  /** The Content-Type of a body that is not JSON; JSON (UTF-8) when absent. */
  contentType?: string;
}

type Headers = Readonly<Record<string, string>>;

/** The members a type names, without its index signature (`[name: string]: unknown`). */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };

/**
 * The headers an answer may set: those its response documents, by their names on the wire
 * (lower case); none where it documents none. An undocumented header does not compile.
 */
type DocumentedHeaders<R> = R extends { headers: infer H }
  ? [NamedKeys<H>] extends [never]
    ? { headers?: undefined }
    : { headers?: { readonly [Name in Lowercase<NamedKeys<H> & string>]?: string } }
  : { headers?: undefined };

declare const jsonTextBrand: unique symbol;
/** A JSON body written once ahead of time (a published document), sent as it is. */
export type JsonText = string & { readonly [jsonTextBrand]: true };

/** The value as JSON text, to be sent with JSON_CONTENT_TYPE as it is. */
export const asJsonText = (value: unknown): JsonText => JSON.stringify(value) as JsonText;

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
type Responses<Op extends keyof operations> = operations[Op]["responses"];

/**
 * One answer per documented media type: JSON needs no content type, any other names its own;
 * an answer documented without content has no body.
 */
type DocumentedAnswer<R, Status> = R extends { content?: never }
  ? { status: Status; body?: undefined; contentType?: undefined } & DocumentedHeaders<R>
  : R extends { content: infer Content }
    ? {
        [Media in keyof Content]: { status: Status } & DocumentedHeaders<R> &
          (Media extends "application/json"
            ?
                | { body: Content[Media]; contentType?: undefined }
                | { body: JsonText; contentType: typeof JSON_CONTENT_TYPE }
            : // Text may also be sent as the bytes of its encoding.
              { body: Content[Media] | Buffer; contentType: `${Media & string}${string}` });
      }[keyof Content]
    : never;

/** An answer the YAML documents for this operation: a documented status with its body. */
export type OperationResponse<Op extends keyof operations> = {
  [Status in keyof Responses<Op>]: DocumentedAnswer<Responses<Op>[Status], Status>;
}[keyof Responses<Op>];

/** The JSON request body the YAML documents for this operation, of any media type it declares. */
export type OperationRequestBody<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: infer Content };
}
  ? Content[keyof Content]
  : never;

/** An answer with the Error body; its headers, if any, are the ones given. */
export interface ErrorAnswer<Status extends number = number, H extends Headers = Headers> {
  status: Status;
  body: ErrorBody;
  headers?: H;
}

export function errorResponse<Status extends number>(
  status: Status,
  message: string,
): ErrorAnswer<Status, never>;
export function errorResponse<Status extends number, H extends Headers>(
  status: Status,
  message: string,
  headers: H,
): ErrorAnswer<Status, H>;
export function errorResponse(status: number, message: string, headers?: Headers): ErrorAnswer {
  return headers === undefined
    ? { status, body: { error: status, message } }
    : { status, body: { error: status, message }, headers };
}
