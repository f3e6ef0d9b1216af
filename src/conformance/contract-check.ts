// Checks an answer against an OpenAPI document (openapi/plants.yaml, or the one a deployment
// publishes): the status must be documented for the
// operation the request reaches, the content type must be one documented for that status, the
// body must match its schema, and documented required headers must be there.

import { Ajv, type ValidateFunction } from "ajv";
import type { Document as BackendDocument } from "openapi-backend";
import { OpenAPIRouter } from "openapi-backend";
import { DATE_TIME_FORMAT, URI_FORMAT } from "../text/formats.ts";
import { linearRegExp } from "./linear-regexp.ts";

export interface Exchange {
  /** Undefined when the request could not be read as HTTP (raw sockets). */
  method?: string | undefined;
  /** The request target (path and query). */
  url?: string | undefined;
  /** Request headers, lower-case names. */
  requestHeaders?: Readonly<Record<string, string | string[] | undefined>>;
  status: number;
  /** Response headers, lower-case names. */
  headers: Readonly<Record<string, string | string[] | number | undefined>>;
  body: string;
}

interface MediaObject {
  schema?: unknown;
}
interface HeaderObject {
  required?: boolean;
  schema?: unknown;
  $ref?: string;
}
interface ResponseObject {
  $ref?: string;
  content?: Record<string, MediaObject>;
  headers?: Record<string, HeaderObject>;
}
interface OperationObject {
  operationId: string;
  responses: Record<string, ResponseObject>;
}
interface Document {
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    responses: Record<string, ResponseObject>;
    headers: Record<string, HeaderObject>;
    schemas: Record<string, unknown>;
  };
}

// Answered before routing for any request, as the description says (malformed HTTP, a bad
// target or repeated headers: 400; slow: 408; huge headers: 431). 404 and 405 are routing's.
const ANY_REQUEST = new Set([400, 408, 431]);

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

export type ContractChecker = (exchange: Exchange) => string[];

/**
 * Every way the answer differs from what `document` says; empty when it matches. The document's
 * patterns run on a linear-time engine; `unchecked` hears of one that engine cannot take.
 */
export function createContractChecker(
  document: unknown,
  unchecked: (pattern: string, why: string) => void = () => {},
): ContractChecker {
  // A copy: the router below annotates the document it is given.
  const doc = structuredClone(document) as Document;
  const model: Model = {
    doc,
    schemas: schemaValidators(doc, unchecked),
    // Routed as src/openapi/backend.ts routes: no trailing-slash leniency.
    router: new OpenAPIRouter({
      definition: structuredClone(document) as BackendDocument,
      ignoreTrailingSlashes: false,
    }),
  };
  return (exchange) => {
    const where = `${exchange.method ?? "?"} ${exchange.url ?? "?"} → ${exchange.status}`;
    const { documented, response } = documentedResponse(model, exchange);
    if (!documented) return [`${where}: status not documented (${response})`];
    const checked = response === "no body" ? {} : response;
    const body = bodyProblems(where, exchange, checked, model.schemas);
    // A body that is not JSON says enough: the headers are not checked.
    if (body.notJson) return body.problems;
    return [...body.problems, ...headerProblems(where, exchange, checked, model)];
  };
}

/** The document, routed, and its schemas compiled as they are first needed. */
interface Model {
  doc: Document;
  router: OpenAPIRouter;
  schemas: Schemas;
}

export interface Schemas {
  ajv: Ajv;
  validator(schema: unknown): ValidateFunction;
}

/** Validators for the document's schemas (its $refs resolve), patterns on the linear engine. */
export function schemaValidators(
  doc: { components?: unknown },
  unchecked: (pattern: string, why: string) => void,
): Schemas {
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    code: { regExp: linearRegExp(unchecked) },
  });
  ajv.addFormat("int32", {
    type: "number",
    validate: (n: number) => Number.isInteger(n) && n >= INT32.min && n <= INT32.max,
  });
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat("date-time", DATE_TIME_FORMAT);
  ajv.addFormat("uri", URI_FORMAT);
  ajv.addSchema({ components: doc.components ?? {} }, "doc");
  const compiled = new Map<unknown, ValidateFunction>();
  const validator = (schema: unknown): ValidateFunction => {
    let validate = compiled.get(schema);
    if (validate === undefined) {
      // Local $refs (#/components/...) point into the document added above as "doc".
      const text = JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/');
      validate = ajv.compile(JSON.parse(text) as object);
      compiled.set(schema, validate);
    }
    return validate;
  };
  return { ajv, validator };
}

const ERROR_RESPONSE: ResponseObject = {
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};

/** The documented response for this exchange, or why there is none. */
function documentedResponse(
  { doc, router }: Model,
  exchange: Exchange,
):
  | { documented: true; response: ResponseObject | "no body" }
  | { documented: false; response: string } {
  const { method, url, status } = exchange;
  if (method === "OPTIONS" && isPreflight(exchange.requestHeaders)) {
    // CORS preflights (the description): 204 without a body, or 403 with the Error body.
    if (status === 204) return { documented: true, response: "no body" };
    if (status === 403) return { documented: true, response: ERROR_RESPONSE };
    return { documented: false, response: "a preflight answers 204 or 403" };
  }
  const path = url?.split("?")[0] ?? "";
  const onPath = router
    .getOperations()
    .filter(
      (op) =>
        router.matchOperation({ method: op.method, path, headers: {} })?.operationId ===
        op.operationId,
    );
  // HEAD is answered wherever GET is, as GET is, without the body (the info description).
  const asMethod = method?.toUpperCase() === "HEAD" ? "GET" : method?.toUpperCase();
  const operation = onPath.find((op) => op.method.toUpperCase() === asMethod);
  if (operation !== undefined) {
    const op = doc.paths[operation.path]?.[operation.method] as OperationObject;
    const response = op.responses[String(status)] ?? op.responses["default"];
    if (response !== undefined) {
      return { documented: true, response: resolveResponse(doc, response) };
    }
    if (ANY_REQUEST.has(status)) return { documented: true, response: ERROR_RESPONSE };
    return { documented: false, response: `${op.operationId} does not document it` };
  }
  if (onPath.length > 0 && status === 405) {
    // A described path with another method: each of its operations documents the 405.
    const answer = onPath
      .map((op) => doc.paths[op.path]?.[op.method]?.responses[String(status)])
      .find(Boolean);
    if (answer !== undefined) return { documented: true, response: resolveResponse(doc, answer) };
  }
  if (status === 404 || ANY_REQUEST.has(status))
    return { documented: true, response: ERROR_RESPONSE };
  return { documented: false, response: "no operation matches the request" };
}

const resolveResponse = (doc: Document, r: ResponseObject): ResponseObject =>
  r.$ref === undefined
    ? r
    : (doc.components.responses[r.$ref.replace("#/components/responses/", "")] ?? {});

/** The body's content type and schema; `notJson` when a JSON body does not parse. */
function bodyProblems(
  where: string,
  exchange: Exchange,
  response: ResponseObject,
  { ajv, validator }: Schemas,
): { problems: string[]; notJson: boolean } {
  const problems: string[] = [];
  const contentType = headerValue(exchange.headers["content-type"]);
  const media = contentType?.split(";")[0]?.trim().toLowerCase();
  const content = response.content ?? {};
  if (Object.keys(content).length === 0) {
    if (exchange.body !== "") problems.push(`${where}: a body where none is documented`);
  } else if (exchange.body === "" && exchange.method === "HEAD") {
    // HEAD answers have no body by definition.
  } else if (media === undefined || content[media] === undefined) {
    problems.push(
      `${where}: content type ${contentType ?? "(none)"} is not one of ${Object.keys(content).join(", ")}`,
    );
  } else {
    const schema = content[media]?.schema;
    if (schema !== undefined) {
      let value: unknown = exchange.body;
      if (media === "application/json") {
        try {
          value = JSON.parse(exchange.body);
        } catch {
          problems.push(`${where}: the body is not JSON: ${exchange.body.slice(0, 200)}`);
          return { problems, notJson: true };
        }
      }
      const validate = validator(schema);
      if (!validate(value)) {
        problems.push(
          `${where}: body does not match the schema: ${ajv.errorsText(validate.errors)}: ${exchange.body.slice(0, 200)}`,
        );
      }
    }
  }
  return { problems, notJson: false };
}

/** Each documented header: there when required, and matching its schema when there. */
function headerProblems(
  where: string,
  exchange: Exchange,
  response: ResponseObject,
  { doc, schemas }: Model,
): string[] {
  const problems: string[] = [];
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const { required, schema } =
      header.$ref === undefined
        ? header
        : (doc.components.headers[header.$ref.replace("#/components/headers/", "")] ?? {});
    const value = headerValue(exchange.headers[name.toLowerCase()]);
    if (value === undefined) {
      if (required === true) problems.push(`${where}: the ${name} header is missing`);
      continue;
    }
    const typed =
      (schema as { type?: string } | undefined)?.type === "integer" ? Number(value) : value;
    if (schema !== undefined && !schemas.validator(schema)(typed)) {
      problems.push(`${where}: the ${name} header "${value}" does not match its schema`);
    }
  }
  return problems;
}

function isPreflight(headers: Exchange["requestHeaders"]): boolean {
  return (
    headers !== undefined &&
    headers["origin"] !== undefined &&
    headers["access-control-request-method"] !== undefined
  );
}

function headerValue(value: string | string[] | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(", ") : String(value);
}
