// openapi-backend, for what it knows of the document: it loads and dereferences
// openapi/plants.yaml (strict: a document it cannot read stops start-up, as does one that is
// not valid OpenAPI of its version, document-check.ts), lists the operations the Fastify
// routes are built from (src/openapi/routes.ts), decides 404 against 405 for a request no
// route took, and compiles each operation's request validators (per body media type).
import type { ValidateFunction } from "ajv";
import { type AjvCustomizer, type Document, OpenAPIBackend, type Operation } from "openapi-backend";
import { bodyMedia } from "./body-media.ts";
import { loadDocument } from "./document.ts";
import { checkDocument } from "./document-check.ts";
import type { ValidatorsFor } from "./inputs.ts";

export interface Api {
  /** The dereferenced document. */
  document: Document;
  /** Every operation, with its path-level parameters and the document's default security. */
  operations: readonly Operation[];
  /** The request validators openapi-backend compiled for the operation, by body media type. */
  validatorsFor(operation: Operation): ValidatorsFor;
  /** The methods the document has for a concrete path, upper case and sorted; none: 404. */
  methodsAt(path: string): string[];
}

/** RFC 3339, as the answers write times (toISOString); linear, with no nested repeats. */
export const DATE_TIME_FORMAT = {
  type: "string",
  validate: (text: string) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i.test(text) &&
    !Number.isNaN(Date.parse(text)),
} as const;

/** An absolute URI (RFC 3986), as the WHATWG URL parser the server uses reads it; no spaces. */
export const URI_FORMAT = {
  type: "string",
  validate: (text: string) => !/[\s\p{Cc}]/u.test(text) && URL.canParse(text),
} as const;

/** How openapi-backend compiles request validators: no coercion, every error, with its data. */
export const VALIDATOR_OPTIONS = {
  coerceTypes: false,
  // The int64 format is checked on the stand-ins src/http/body.ts picks from the exact
  // values; openapi-backend's own check works in doubles.
  customizeAjv: ((ajv) =>
    ajv
      .addFormat("int64", {
        type: "number",
        validate: (n: number) => isInt64Double(n),
      })
      .addFormat("date-time", DATE_TIME_FORMAT)
      .addFormat("uri", URI_FORMAT)) satisfies AjvCustomizer,
  ajvOpts: { allErrors: true, verbose: true, coerceTypes: false, useDefaults: false },
} as const;

/** The API of openapi/plants.yaml, or of another document (the unit tests' own). */
export async function createApi(definition: Document = loadDocument()): Promise<Api> {
  await checkDocument(definition);
  const api = new CheckedBackend({
    definition,
    strict: true,
    // Validators are compiled here and run by the routes, after the caller is authenticated.
    validate: true,
    ...VALIDATOR_OPTIONS,
    ignoreTrailingSlashes: false,
  });
  await api.init();
  const operations = api.router.getOperations();
  for (const operation of operations) {
    if (operation.operationId === undefined) {
      throw new Error(`${operation.method.toUpperCase()} ${operation.path} has no operationId`);
    }
  }
  const validators = new Map(
    operations.map((operation) => [operation, validatorsByMediaType(api, operation)]),
  );
  return {
    document: api.document,
    operations,
    validatorsFor: (operation) => validators.get(operation) ?? (() => []),
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

/** openapi-backend, strict, but for its check of the document: checkDocument's is the one. */
class CheckedBackend extends OpenAPIBackend {
  override validateDefinition(): Document {
    return this.document;
  }
}

/**
 * An operation's validators for each JSON media type its body declares, and for no body.
 * openapi-backend compiles a body check for the content key "application/json" alone; for any
 * other, the same compilation is asked of it with that Media Type Object in its place.
 */
function validatorsByMediaType(api: OpenAPIBackend, operation: Operation): ValidatorsFor {
  const precompiled =
    api.validator.getRequestValidatorsForOperation(operation.operationId as string) ?? [];
  const requestBody = operation.requestBody as { content?: Record<string, unknown> } | undefined;
  const byType = new Map<string, readonly ValidateFunction[]>();
  for (const { type, media } of bodyMedia(operation)) {
    if (media === requestBody?.content?.["application/json"]) {
      byType.set(type, precompiled);
      continue;
    }
    const onlyThis = {
      ...operation,
      requestBody: { ...requestBody, content: { "application/json": media } },
    };
    byType.set(type, api.validator.buildRequestValidatorsForOperation(onlyThis as Operation) ?? []);
  }
  // No body (an optional one not sent): the first type's, which check the parameters too.
  const none = byType.values().next().value ?? precompiled;
  return (mediaType) => (mediaType === undefined ? none : (byType.get(mediaType) ?? none));
}

const isInt64Double = (n: number): boolean => Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 63;
