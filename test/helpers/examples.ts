// The requests the document's examples make, and the answers they must get, read from
// openapi/plants.yaml by the conformance engine (src/conformance/examples.ts); and the test-only
// part: comparing the answers of states only a test brings about with their examples.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { Bindings as DocumentBindings } from "../../src/conformance/bindings.ts";
import { documentExamples } from "../../src/conformance/examples.ts";
import { loadDocument } from "../../src/openapi/document.ts";
import { REPO_ROOT } from "./server-process.ts";

export {
  bodyOf,
  declaredNames,
  type ExampleAnswer,
  type RequestExample,
  type SetupRequest,
} from "../../src/conformance/examples.ts";

const document = loadDocument();

export const {
  resolveResponse,
  answersNamed,
  requestExamples,
  everyRequestExample,
  everyNamedAnswer,
} = documentExamples(document);

/** Bindings over openapi/plants.yaml. */
export class Bindings extends DocumentBindings {
  constructor() {
    super(document);
  }
}

/**
 * For an answer only a server in some state gives (shutting down, overloaded, its store gone):
 * the test that brings that state about compares what it got with the document's example of
 * that name, wherever it is documented. The examples suite finds these calls in test/.
 */
export function expectExampleAnswer(name: string, answer: { status: number; body: unknown }): void {
  const documented = everyNamedAnswer().filter((entry) => entry.name === name);
  expect(documented.length, `the document has no response example named ${name}`).toBeGreaterThan(
    0,
  );
  for (const { operationId, answer: example } of documented) {
    expect({ status: answer.status, body: answer.body }, `${operationId} example ${name}`).toEqual({
      status: example.status,
      body: example.body,
    });
  }
}

/** The example names test files compare answers with through expectExampleAnswer. */
export function namesComparedInTests(): Set<string> {
  const names = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith(".test.ts")) {
        for (const [, name] of readFileSync(path, "utf8").matchAll(
          /expectExampleAnswer\(\s*"(\w+)"/g,
        )) {
          if (name !== undefined) names.add(name);
        }
      }
    }
  };
  visit(join(REPO_ROOT, "test"));
  return names;
}
