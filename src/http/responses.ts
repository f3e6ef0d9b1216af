// The one shape every answer takes before it is sent, and the contract's Error body.
import type { components } from "../../generated/plants.ts";

export type ErrorBody = components["schemas"]["Error"];
export type PlantBody = components["schemas"]["Plant"];

export interface ApiResponse {
  status: number;
  body: ErrorBody | PlantBody;
  headers?: Readonly<Record<string, string>>;
}

export function errorResponse(
  status: number,
  message: string,
  headers?: Readonly<Record<string, string>>,
): ApiResponse {
  return headers === undefined
    ? { status, body: { error: status, message } }
    : { status, body: { error: status, message }, headers };
}
