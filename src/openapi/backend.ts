// openapi-backend, for what it knows of the document: it dereferences openapi/plants.yaml, lists
// the operations the Fastify routes are built from (src/openapi/routes.ts), decides 404 against
// 405 for a request no route took, and gives each operation's request validators (per body
// media type). For openapi/plants.yaml those were compiled to code by the build
// (compiled-api.ts); a document given here (the unit tests' own) is checked against the OpenAPI
// schema of its version (document-check.ts) and compiled now.
import type { ValidateFunction } from "ajv";
import { type Document, OpenAPIBackend, type Operation } from "openapi-backend";
import { loadCompiledApi, type Serializer } from "./compiled-api.ts";
import type { ValidatorsFor } from "./inputs.ts";
import { compileValidators, type OperationValidators } from "./validators.ts";

export interface Api {
  /** The dereferenced document. */
  document: Document;
  /** Every operation, with its path-level parameters and the document's default security. */
  operations: readonly Operation[];
  /** The request validators openapi-backend compiled for the operation, by body media type. */
  validatorsFor(operation: Operation): ValidatorsFor;
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
  if (definition !== undefined) {
    // Loaded only here: the check compiles the OpenAPI schemas, which a built API has passed.
    const { checkDocument } = await import("./document-check.ts");
    await checkDocument(definition);
  }
  const api = await backendFor(compiled?.document ?? (definition as Document));
  const operations = api.router.getOperations();
  for (const operation of operations) {
    if (operation.operationId === undefined) {
      throw new Error(`${operation.method.toUpperCase()} ${operation.path} has no operationId`);
    }
  }
  const validators = compiled?.validators ?? compileValidators(api.definition, api.router);
  const serializers = compiled?.serializers;
  return {
    document: api.document,
    operations,
    validatorsFor: (operation) => byMediaType(validators[operation.operationId as string]),
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
          api.router.matchOperation({ method: op.method, path, headers: {} })?.operationId ===
          op.operationId,
      );
      return [...new Set(at.map((op) => op.method.toUpperCase()))].sort();
    },
  };
}

/**
 * openapi-backend on `definition`, which it dereferences in place: strict, but for its check of
 * the document (checkDocument's is the one), and with no validators of its own (validators.ts).
 */
export async function backendFor(definition: Document): Promise<OpenAPIBackend> {
  const api = new CheckedBackend({
    definition,
    strict: true,
    validate: false,
    ignoreTrailingSlashes: false,
  });
  return api.init();
}

class CheckedBackend extends OpenAPIBackend {
  override validateDefinition(): Document {
    return this.document;
  }
}

const NO_VALIDATORS: readonly ValidateFunction[] = [];

function byMediaType(validators: OperationValidators | undefined): ValidatorsFor {
  if (validators === undefined) return () => NO_VALIDATORS;
  const { none, byType } = validators;
  return (mediaType) => (mediaType === undefined ? none : (byType[mediaType] ?? none));
}
