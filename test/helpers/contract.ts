// Checks every answer a test gets against openapi/plants.yaml, with the conformance engine's
// checker (src/conformance/contract-check.ts).

import type { Exchange } from "../../src/conformance/contract-check.ts";
import {
  type ContractChecker,
  createContractChecker as checkerFor,
} from "../../src/conformance/contract-check.ts";
import { loadDocument } from "../../src/openapi/document.ts";

export type { Exchange };

export const createContractChecker = (): ContractChecker => checkerFor(loadDocument());

let shared: ContractChecker | undefined;

/** Throws, naming every mismatch, when the answer is not what the YAML documents. */
export function assertDocumented(exchange: Exchange): void {
  shared ??= createContractChecker();
  const problems = shared(exchange);
  if (problems.length > 0) {
    throw new Error(`the answer does not match openapi/plants.yaml:\n  ${problems.join("\n  ")}`);
  }
}
