// The one shape every answer takes before it is sent, typed from the contract.
import type { components, operations } from "../../generated/plants.ts";

export type ErrorBody = components["schemas"]["Error"];
export type PlantBody = components["schemas"]["Plant"];

export interface ApiResponse {
  status: number;
  body: ErrorBody | PlantBody;
  headers?: Readonly<Record<string, string>>;
}

type JsonContent<R> = R extends { content: { "application/json": infer Body } } ? Body : never;
type Responses<Op extends keyof operations> = operations[Op]["responses"];

/** An answer the YAML documents for this operation: a documented status with its body. */
export type OperationResponse<Op extends keyof operations> = {
  [Status in keyof Responses<Op>]: {
    status: Status;
    body: JsonContent<Responses<Op>[Status]>;
    headers?: Readonly<Record<string, string>>;
  };
}[keyof Responses<Op>];

/** The JSON request body the YAML documents for this operation. */
export type OperationRequestBody<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { "application/json": infer Body } };
}
  ? Body
  : never;

export function errorResponse<Status extends number>(
  status: Status,
  message: string,
  headers?: Readonly<Record<string, string>>,
): { status: Status; body: ErrorBody; headers?: Readonly<Record<string, string>> } {
  return headers === undefined
    ? { status, body: { error: status, message } }
    : { status, body: { error: status, message }, headers };
}
