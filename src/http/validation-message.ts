// Turns openapi-backend's ajv errors into one sentence that names each failing parameter or
// body field and the check it failed, in the document's own terms.
import type { ErrorObject } from "ajv";
import { INT64_MAX, INT64_MIN } from "./int64.ts";
import { jsonTypeOf, withArticle } from "./json-type.ts";

export function describeValidationErrors(errors: readonly ErrorObject[]): string {
  const reasons = [...new Set(errors.map(describeOne))];
  return reasons.length === 0 ? "the request is not valid" : reasons.join("; ");
}

const PARAMETER_KINDS = new Set(["path", "query", "header"]);

function describeOne(error: ErrorObject): string {
  const [where = "", ...rest] = error.instancePath.split("/").filter((p) => p !== "");
  const params = error.params as Record<string, unknown>;
  const field = rest.map(unescapePointer).join(".");
  const isParameter = PARAMETER_KINDS.has(where);
  const subject = isParameter ? `${where} parameter ${field}` : field;
  switch (error.keyword) {
    case "required": {
      const missing = String(params["missingProperty"] ?? "");
      if (missing === "requestBody") return "a request body is required";
      if (isParameter || (where === "" && PARAMETER_KINDS.has(missing))) {
        return `${isParameter ? `${where} parameter ${missing}` : `a ${missing} parameter`} is required`;
      }
      return `${joinField(field, missing)} is required`;
    }
    case "additionalProperties":
      return `${where} parameter "${String(params["additionalProperty"] ?? "")}" is not accepted`;
    case "type":
      return subject === ""
        ? `the request body must be a JSON ${String(params["type"])}, got ${withArticle(jsonTypeOf(error.data))}`
        : `${subject} must be ${withArticle(String(params["type"]))} (got ${jsonTypeOf(error.data)})`;
    case "format":
      return params["format"] === "int64"
        ? `${subject} must be an integer from ${INT64_MIN} to ${INT64_MAX}`
        : `${subject} must match format ${String(params["format"])}`;
    case "minimum":
    case "maximum":
      return `${subject} must be ${error.keyword === "minimum" ? "at least" : "at most"} ${String(params["limit"])}`;
    default:
      return `${subject || "the request body"} ${error.message ?? "is not valid"}`;
  }
}

const joinField = (parent: string, child: string): string =>
  parent === "" ? child : `${parent}.${child}`;

/** A JSON Pointer segment as the member name it stands for. */
const unescapePointer = (segment: string): string =>
  segment.replaceAll("~1", "/").replaceAll("~0", "~");
