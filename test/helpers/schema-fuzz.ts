// Requests made from the schemas of openapi/plants.yaml, by the conformance engine
// (src/conformance/schema-values.ts).
import { schemaArbitraries } from "../../src/conformance/schema-values.ts";
import { loadDocument } from "../../src/openapi/document.ts";

export type { FuzzRequest } from "../../src/conformance/schema-values.ts";

export const { validValue, invalidValue, fuzzRequest } = schemaArbitraries(loadDocument());
