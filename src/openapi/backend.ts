// openapi-backend, for what it knows of the document: it dereferences openapi/plants.yaml, lists
// the operations the Fastify routes are built from (src/http/operation-steps.ts), decides 404 against
// 405 for a request no route took, and gives each operation's request validators (per body
// media type). For openapi/plants.yaml all of it was done by the build (compiled-api.ts); a
// document given here (the unit tests' own) is checked against the OpenAPI schema of its
// version (document-check.ts), dereferenced and compiled now.
import { type Document, OpenAPIBackend, OpenAPIRouter, type Operation } from "openapi-backend";
import { loadCompiledApi, type Serializer } from "./compiled-api.ts";
import { type ApiData, apiData } from "./data.ts";
import { compileValidators, type OperationValidators } from "./validators.ts";

export interface Api {
  /** The dereferenced document. */
  document: Document;
  /** What the document declares of the data: its tables, their operations and events. */
  data: ApiData;
  /** Every operation, with its path-level parameters and the document's default security. */
  operations: readonly Operation[];
  /** The request validators openapi-backend compiled for the operation, by body media type. */
  validatorsFor(operation: Operation): OperationValidators;
  /**
   * The build's serializer of a JSON answer of the operation (by status, as the document keys
   * it); undefined for a document compiled at run time, whose serializers Fastify compiles.
   */
  serializerFor: ((operationId: string, status: string) => Serializer) | undefined;
  /** The methods the document has for a concrete path, upper case and sorted; none: 404. */
  methodsAt(path: string): string[];
}

/** The API of openapi/plants.yaml as built, or of another document, compiled now. */
export async function createApi(definition?: Document): Promise<Api> {
  const compiled = definition === undefined ? await loadCompiledApi() : undefined;
  let document: Document;
  if (compiled === undefined) {
    // Loaded only here: the check compiles the OpenAPI schemas, which a built API has passed.
    const { checkDocument } = await import("./document-check.ts");
    await checkDocument(definition as Document);
    document = await dereference(definition as Document);
  } else {
    document = compiled.document;
  }
  const router = new OpenAPIRouter({ definition: document, ignoreTrailingSlashes: false });
  const operations = router.getOperations();
  for (const operation of operations) {
    if (operation.operationId === undefined) {
      throw new Error(`${operation.method.toUpperCase()} ${operation.path} has no operationId`);
    }
  }
  const validators = compiled?.validators ?? compileValidators(document, router);
  const data = compiled?.data ?? apiData(document);
  const serializers = compiled?.serializers;
  return {
    document,
    data,
    operations,
    validatorsFor: (operation) => validators[operation.operationId as string] ?? NO_VALIDATORS,
    serializerFor:
      serializers === undefined
        ? undefined
        : (operationId, status) => {
            const serializer = serializers[operationId]?.[status];
            if (serializer === undefined) {
              throw new Error(`the build has no serializer for ${operationId} ${status}`);
            }
            return serializer;
          },
    methodsAt(path) {
      // The router lists its operations afresh for every match: compared by operationId.
      const at = operations.filter(
        (op) =>
          router.matchOperation({ method: op.method, path, headers: {} })?.operationId ===
          op.operationId,
      );
      return [...new Set(at.map((op) => op.method.toUpperCase()))].sort();
    },
  };
}

/**
 * The document dereferenced (in place) as openapi-backend's init does it, with
 * json-schema-ref-parser: a `$ref`'s sibling keywords are kept. Its check of the document is
 * left out (checkDocument's is the one), and so are its validators (validators.ts).
 */
export async function dereference(definition: Document): Promise<Document> {
  const api = new CheckedBackend({
    definition,
    strict: true,
    validate: false,
    ignoreTrailingSlashes: false,
  });
  return (await api.init()).definition;
}

class CheckedBackend extends OpenAPIBackend {
  override validateDefinition(): Document {
    return this.document;
  }
}

const NO_VALIDATORS: OperationValidators = { none: [], byType: {} };

/** What openapi/plants.yaml declares of the data, read from the YAML now (the CLI, the tests). */
export async function documentData(): Promise<ApiData> {
  const { loadDocument } = await import("./document.ts");
  return apiData(await dereference(loadDocument()));
}
