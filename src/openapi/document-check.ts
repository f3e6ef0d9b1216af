// The document checked against the OpenAPI schema of its own version before anything reads it.
// openapi-backend checks every document against the 3.0 schema, which refuses what 3.1 added
// to schemas (a type list such as [string, "null"], const, a numeric exclusiveMinimum): a 3.1
// document using them could not start. @seriousme/openapi-schema-validator, the one
// fastify-openapi-glue uses, knows each version's schema (2.0, 3.0, 3.1, 3.2).
import { Validator } from "@seriousme/openapi-schema-validator";
import type { Document } from "openapi-backend";

// One per process: it compiles each version's schema once, on first use.
const validator = new Validator();

// Enough to find the first mistakes; the rest follow from them, or show on the next start.
const ERRORS_SAID = 5;

/** Throws, saying where and why, unless `document` is valid OpenAPI of the version it declares. */
export async function checkDocument(document: Document): Promise<void> {
  const result = await validator.validate(document as unknown as Record<string, unknown>);
  if (result.valid) return;
  const errors =
    typeof result.errors === "string"
      ? [result.errors]
      : (result.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is not valid"}`);
  const more = errors.length > ERRORS_SAID ? ` (and ${errors.length - ERRORS_SAID} more)` : "";
  throw new Error(
    `the document is not valid OpenAPI ${String(document.openapi)}: ${errors.slice(0, ERRORS_SAID).join("; ")}${more}`,
  );
}
