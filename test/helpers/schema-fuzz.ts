// Requests made from the schemas of openapi/plants.yaml, by the conformance engine
// (src/conformance/fuzz-request.ts).
import { type FuzzRequest, schemaArbitraries } from "../../src/conformance/fuzz-request.ts";
import { loadDocument } from "../../src/openapi/document.ts";

export { unexpectedAnswer } from "../../src/conformance/probe-rules.ts";
export type { FuzzRequest };

// The fuzz suite runs on the project's own document: its patterns are compiled as they are.
export const { validValue, invalidValue, fuzzRequest } = schemaArbitraries(
  loadDocument(),
  (source) => new RegExp(source, "u"),
);
