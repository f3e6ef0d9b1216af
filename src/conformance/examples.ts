// The requests a document's examples make, and the answers they must get: read from the
// document (openapi/plants.yaml, or a deployment's), so an operation added to it brings its
// examples into the examples suite, Prism's traffic and the conformance run unchanged.
//
// A request example is named across its operation: its body example and the examples of its
// parameters that share the name make up one request, answered by the response example of the
// same name (or the bodiless answer that lists the name in `x-example-requests`). A response
// example no request example can make — a body the schema refuses, no credentials — says how
// it is made in `x-request`: `target` (path and query as sent), `body` (the raw text), `headers`,
// and `credentials: false` (sent without the test token). A response example that needs server
// state its own request cannot make (a plant created after an endpoint was registered) lists
// the requests that make it in `x-setup` (`method`, `target`, `body`), sent first.
//
// Values the server makes (ids, secrets, times) are marked `x-generated: true` in the schemas:
// an answer's generated value matches the example's when it is valid for its schema, and the
// example's value then stands for it: later requests that use it (a path parameter) send the
// real one, and later answers must show the real one there (Bindings, in bindings.ts).
import { isJsonMediaType } from "../text/media-type.ts";
import { asDocument, type DocumentedOperation, operationsOf } from "./operations.ts";

/** A request that brings about the state an example needs; sent with the test token. */
export interface SetupRequest {
  method: string;
  target: string;
  body?: string;
}
export interface Example {
  value?: unknown;
  "x-request"?: {
    target?: string;
    body?: string;
    headers?: Record<string, string>;
    credentials?: boolean;
  };
  "x-setup"?: SetupRequest[];
}
export interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, Example>;
}
export interface Response {
  $ref?: string;
  content?: Record<string, MediaType>;
  "x-example-requests"?: string[];
}

export interface Schema {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  "x-generated"?: boolean;
}

export interface ExampleAnswer {
  status: number;
  /** The media type of the named example; undefined for a bodiless answer. */
  media?: string;
  body?: unknown;
  /** The schema of the answer's body, where the document gives one. */
  schema?: Schema;
}

export interface RequestExample {
  operation: DocumentedOperation;
  name: string;
  answer: ExampleAnswer;
  /** Path and query, as sent. */
  target: string;
  headers: Record<string, string>;
  /** The body as sent: its raw text. */
  body?: string;
  /** Whether the test token goes with it. */
  credentials: boolean;
  /** Made from an answer's x-request: a request the document itself would refuse. */
  outsideTheDocument: boolean;
  /** The answer's x-setup: requests sent before this one. */
  setup: SetupRequest[];
}

/** The operation's JSON request body media type and its examples. */
export function bodyOf({ operation }: DocumentedOperation): {
  media?: string;
  examples: Record<string, Example>;
} {
  const content =
    (operation as { requestBody?: { content: Record<string, MediaType> } }).requestBody?.content ??
    {};
  const media = Object.keys(content).find(isJsonMediaType);
  return media === undefined
    ? { examples: {} }
    : { media, examples: content[media]?.examples ?? {} };
}

/** Every example name the operation's parameters and body declare, in the order written. */
export function declaredNames(operation: DocumentedOperation): string[] {
  const names = [
    ...operation.parameters.flatMap((parameter) => Object.keys(parameter.examples ?? {})),
    ...Object.keys(bodyOf(operation).examples),
  ];
  return [...new Set(names)];
}

/** The examples of `document`, read as the comment at the top of this file says. */
export function documentExamples(document: object) {
  const responses = (asDocument(document).components?.responses ?? {}) as Record<string, Response>;
  const operations = operationsOf(asDocument(document));
  const resolveResponse: Resolve = (response) =>
    response.$ref === undefined
      ? response
      : (responses[response.$ref.replace("#/components/responses/", "")] ?? {});
  const requestExamples = (operation: DocumentedOperation): RequestExample[] => [
    ...declaredNames(operation).flatMap((name) => inputExample(resolveResponse, operation, name)),
    ...answerExamples(resolveResponse, operation),
  ];
  return {
    resolveResponse,
    /** The answers of `operation` that carry the example `name` (one, if the name is its). */
    answersNamed: (operation: DocumentedOperation, name: string) =>
      answersNamed(resolveResponse, operation, name),
    /** The requests the operation's examples make, in the order written: its parameters' and
     * body's named examples it answers, then its answers' `x-request`s. */
    requestExamples,
    /** Every request example of the document, operation by operation in document order. */
    everyRequestExample: (): RequestExample[] => operations.flatMap(requestExamples),
    /** Every named response example: "operationId status name". */
    everyNamedAnswer: (): { operationId: string; name: string; answer: ExampleAnswer }[] =>
      operations.flatMap((operation) =>
        namedAnswers(resolveResponse, operation).map(([name, answer]) => ({
          operationId: operation.operationId,
          name,
          answer,
        })),
      ),
  };
}

/** A response as written, its `$ref` followed. */
type Resolve = (response: Response) => Response;

/** Every named example of the operation's answers: [name, answer, its x-request]. */
function namedAnswers(
  resolve: Resolve,
  { operation }: DocumentedOperation,
): [string, ExampleAnswer, Example][] {
  return Object.entries(operation.responses).flatMap(([status, raw]) => {
    const response = resolve(raw as Response);
    return Object.entries(response.content ?? {}).flatMap(([media, type]) =>
      Object.entries(type.examples ?? {}).map(
        ([name, example]): [string, ExampleAnswer, Example] => [
          name,
          {
            status: Number(status),
            media,
            body: example.value,
            ...(type.schema === undefined ? {} : { schema: type.schema }),
          },
          example,
        ],
      ),
    );
  });
}

function answersNamed(
  resolve: Resolve,
  operation: DocumentedOperation,
  name: string,
): ExampleAnswer[] {
  const bodiless = Object.entries(operation.operation.responses).flatMap(([status, raw]) =>
    resolve(raw as Response)["x-example-requests"]?.includes(name)
      ? [{ status: Number(status) }]
      : [],
  );
  return [
    ...bodiless,
    ...namedAnswers(resolve, operation)
      .filter(([named]) => named === name)
      .map(([, answer]) => answer),
  ];
}

/** The request its parameters' and body's examples named `name` make, if an answer has it. */
function inputExample(
  resolve: Resolve,
  operation: DocumentedOperation,
  name: string,
): RequestExample[] {
  const [answer, ...more] = answersNamed(resolve, operation, name);
  if (answer === undefined) return [];
  const setup =
    namedAnswers(resolve, operation).find(([named]) => named === name)?.[2]["x-setup"] ?? [];
  if (more.length > 0) {
    throw new Error(`${operation.operationId} answers example ${name} more than once`);
  }
  const { target, headers } = exampleTarget(operation, name);
  const body = bodyOf(operation).examples[name]?.value;
  return [
    {
      operation,
      name,
      answer,
      target,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: true,
      outsideTheDocument: false,
      setup,
    },
  ];
}

/** The path, query and headers the parameters' examples named `name` make. */
function exampleTarget(
  operation: DocumentedOperation,
  name: string,
): { target: string; headers: Record<string, string> } {
  const value = (place: string, parameterName: string) =>
    operation.parameters.find((p) => p.in === place && p.name === parameterName)?.examples?.[name]
      ?.value;
  const path = operation.template.replace(/\{([^{}/]+)\}/g, (_whole, parameter: string) => {
    const given = value("path", parameter);
    if (given === undefined) {
      throw new Error(`${operation.operationId} example ${name}: path parameter ${parameter}`);
    }
    return encodeURIComponent(String(given));
  });
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    const given = parameter.examples?.[name]?.value;
    if (given === undefined) continue;
    if (parameter.in === "query") query.set(parameter.name ?? "", String(given));
    if (parameter.in === "header") headers[parameter.name ?? ""] = String(given);
  }
  return { target: query.size === 0 ? path : `${path}?${query}`, headers };
}

/** The requests its answers' examples describe in `x-request`. */
function answerExamples(resolve: Resolve, operation: DocumentedOperation): RequestExample[] {
  return namedAnswers(resolve, operation).flatMap(([name, answer, example]) => {
    const request = example["x-request"];
    if (request === undefined) return [];
    return [
      {
        operation,
        name,
        answer,
        target: request.target ?? operation.path,
        headers: request.headers ?? {},
        ...(request.body === undefined ? {} : { body: request.body }),
        credentials: request.credentials ?? true,
        outsideTheDocument: true,
        setup: example["x-setup"] ?? [],
      },
    ];
  });
}
