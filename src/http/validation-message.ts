// Turns openapi-backend's ajv errors into one sentence that names each field and why.
import type { ErrorObject } from "ajv";
import { INT64_MAX, INT64_MIN } from "./int64.ts";
import { jsonTypeOf, withArticle } from "./json-type.ts";

export function describeValidationErrors(errors: readonly ErrorObject[]): string {
  const reasons = [...new Set(errors.map(describeOne))];
  return reasons.length === 0 ? "the request is not valid" : reasons.join("; ");
}

function describeOne(error: ErrorObject): string {
  const [where = "", ...rest] = error.instancePath.split("/").filter((p) => p !== "");
  const field = rest.join(".");
  const params = error.params as Record<string, unknown>;
  if (where === "query") {
    const name = String(params["additionalProperty"] ?? field);
    return `query parameter "${name}" is not accepted: this operation takes none`;
  }
  switch (error.keyword) {
    case "required": {
      const missing = String(params["missingProperty"] ?? "");
      return missing === "requestBody"
        ? "a request body is required: a JSON object with id and name"
        : `${joinField(field, missing)} is required`;
    }
    case "type":
      return `${field || "the request body"} must be ${withArticle(String(params["type"]))} (got ${jsonTypeOf(error.data)})`;
    case "format":
      return params["format"] === "int64"
        ? `${field} must be an integer from ${INT64_MIN} to ${INT64_MAX}`
        : `${field} must match format ${String(params["format"])}`;
    default:
      return `${field || "the request body"} ${error.message ?? "is not valid"}`;
  }
}

const joinField = (parent: string, child: string): string =>
  parent === "" ? child : `${parent}.${child}`;
