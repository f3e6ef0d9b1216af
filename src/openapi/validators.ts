// Each operation's request validators, compiled by openapi-backend from the dereferenced
// document: one list for each JSON media type its body declares, and one for a request without
// a body. The build compiles them once to code (scripts/compile-api.ts); a document given at run
// time (the unit tests' own) is compiled here, by the same calls.
import type { ValidateFunction } from "ajv";
import {
  type AjvCustomizer,
  type Document,
  type OpenAPIRouter,
  OpenAPIValidator,
  type Operation,
  ValidationContext,
} from "openapi-backend";
import { DATE_TIME_FORMAT, INT64_FORMAT, URI_FORMAT } from "../text/formats.ts";
import { bodyMedia } from "./body-media.ts";

/** An operation's validators: for each JSON media type of its body, and for no body. */
export interface OperationValidators {
  none: readonly ValidateFunction[];
  byType: Readonly<Record<string, readonly ValidateFunction[]>>;
}

/** How openapi-backend compiles request validators: no coercion, every error, with its data. */
export const VALIDATOR_OPTIONS = {
  coerceTypes: false,
  // The int64 format is checked on the stand-ins src/http/body.ts picks from the exact
  // values; openapi-backend's own check works in doubles.
  customizeAjv: ((ajv) =>
    ajv
      .addFormat("int64", INT64_FORMAT)
      .addFormat("date-time", DATE_TIME_FORMAT)
      .addFormat("uri", URI_FORMAT)) satisfies AjvCustomizer,
  ajvOpts: { allErrors: true, verbose: true, coerceTypes: false, useDefaults: false },
} as const;

type AjvOptions = ConstructorParameters<typeof OpenAPIValidator>[0]["ajvOpts"];

/**
 * Every operation's validators, by operationId. `ajvOptions` adds to VALIDATOR_OPTIONS' (the
 * build asks for each function's source).
 */
export function compileValidators(
  definition: Document,
  router: OpenAPIRouter,
  ajvOptions: AjvOptions = {},
): Record<string, OperationValidators> {
  const validator = backendValidator(definition, router, ajvOptions);
  const compiled: Record<string, OperationValidators> = {};
  for (const operation of router.getOperations()) {
    compiled[operation.operationId as string] = operationValidators(validator, operation);
  }
  return compiled;
}

/**
 * The formats openapi-backend's validators know (its own and VALIDATOR_OPTIONS'), by name: what
 * the compiled code of a validator that checks a format calls.
 */
export function validatorFormats(): Record<string, unknown> {
  const empty = { openapi: "3.1.0", info: { title: "", version: "" }, paths: {} } as Document;
  const validator = backendValidator(empty, undefined, {});
  return { ...validator.getAjv(ValidationContext.RequestBody).formats };
}

function backendValidator(
  definition: Document,
  router: OpenAPIRouter | undefined,
  ajvOptions: AjvOptions,
): OpenAPIValidator {
  return new OpenAPIValidator({
    definition,
    ...(router === undefined ? {} : { router }),
    ...VALIDATOR_OPTIONS,
    ajvOpts: { ...VALIDATOR_OPTIONS.ajvOpts, ...ajvOptions },
    // Only the request validators, and only as asked for below.
    lazyCompileValidators: true,
  });
}

/**
 * openapi-backend compiles a body check for the content key "application/json" alone; for any
 * other JSON media type, the same compilation is asked of it with that Media Type Object in its
 * place.
 */
function operationValidators(
  validator: OpenAPIValidator,
  operation: Operation,
): OperationValidators {
  const requestBody = operation.requestBody as { content?: Record<string, unknown> } | undefined;
  const byType: Record<string, readonly ValidateFunction[]> = {};
  for (const { type, media } of bodyMedia(operation)) {
    const onlyThis =
      media === requestBody?.content?.["application/json"]
        ? operation
        : { ...operation, requestBody: { ...requestBody, content: { "application/json": media } } };
    byType[type] = validator.buildRequestValidatorsForOperation(onlyThis as Operation) ?? [];
  }
  // No body (an optional one not sent): the first type's, which check the parameters too.
  const none =
    Object.values(byType)[0] ?? validator.buildRequestValidatorsForOperation(operation) ?? [];
  return { none, byType };
}
