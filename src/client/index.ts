// The Plant Store client (`import { createClient } from "plantstore-client"`), built from
// generated/plants.ts and so from openapi/plants.yaml: a method per operation, named by its
// operationId and typed from the document (an operation added to the YAML is a method after
// `npm run generate`, with no client code written), int64s as bigints in and out (written as
// exact digits, parsed without rounding, wherever the document puts them), retries of
// idempotent calls on 503 and network errors honouring Retry-After, and an iterator over every
// stored plant that follows the list's rel="next" links. It imports nothing from node: (it runs
// in browsers too); verifyWebhook, for receivers on Node, is `plantstore-client/webhooks`.
import type { components, operations } from "../../generated/plants.ts";
import { operationTable } from "../../generated/plants.ts";
import { PlantStoreError } from "./errors.ts";
import { fromJson, type Location, matches, toJson } from "./exact-json.ts";
import { nextLink } from "./link.ts";
import {
  type RetryOptions,
  type Sent,
  sendWithRetries,
  type Transport,
  type WireRequest,
} from "./transport.ts";

export { AnswerTooLargeError, type ErrorBody, PlantStoreError } from "./errors.ts";
export type { RetryOptions } from "./transport.ts";

export type Plant = components["schemas"]["Plant"];
export type NewPlant = components["schemas"]["NewPlant"];
export type StoredPlant = components["schemas"]["StoredPlant"];
export type OperationId = keyof typeof operationTable & keyof operations;

type Parameters<Op extends OperationId> = operations[Op]["parameters"];
type JsonBody<T> = T extends { content: infer Content } ? Content[keyof Content] : never;
type Success<Op extends OperationId> = {
  [S in keyof operations[Op]["responses"]]: S extends 200 | 201 | 204
    ? operations[Op]["responses"][S] extends { content: infer C }
      ? C[keyof C]
      : undefined
    : never;
}[keyof operations[Op]["responses"]];

/** One kind of parameter: required when the operation has a required one of that kind. */
type ParametersInput<Op extends OperationId, Where extends "path" | "query" | "header"> = [
  NonNullable<Parameters<Op>[Where]>,
] extends [never]
  ? { [K in Where]?: undefined }
  : Record<string, never> extends NonNullable<Parameters<Op>[Where]>
    ? { [K in Where]?: NonNullable<Parameters<Op>[Where]> }
    : { [K in Where]: NonNullable<Parameters<Op>[Where]> };

/** The JSON body: required where the document requires one. */
type BodyInput<Op extends OperationId> = operations[Op] extends { requestBody: infer B }
  ? { body: JsonBody<B> }
  : operations[Op] extends { requestBody?: infer B }
    ? [NonNullable<B>] extends [never]
      ? { body?: undefined }
      : { body?: JsonBody<NonNullable<B>> }
    : { body?: undefined };

/** What a call takes: the operation's parameters and JSON body, as the YAML types them. */
export type CallInput<Op extends OperationId> = ParametersInput<Op, "path"> &
  ParametersInput<Op, "query"> &
  ParametersInput<Op, "header"> &
  BodyInput<Op>;

/** The input may be left out where nothing in it is required. */
type InputArgs<Op extends OperationId> =
  Record<string, never> extends CallInput<Op> ? [input?: CallInput<Op>] : [input: CallInput<Op>];

/** A method per operation of the document, named by its operationId. */
export type OperationMethods = {
  [Op in OperationId]: (...input: InputArgs<Op>) => Promise<Success<Op>>;
};

// Each option also takes `undefined` ("as if left out"), so that a caller compiled with
// exactOptionalPropertyTypes can pass `process.env.TOKEN` and the like as they are.
export interface ClientOptions {
  /** Where the API is, e.g. https://plants.example.com (the `servers` URL). */
  baseUrl: string;
  /** A bearer token; omitted for the operations that need none. */
  token?: string | undefined;
  retry?: RetryOptions | undefined;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: typeof fetch | undefined;
  /** Each attempt is abandoned after this long (30 s). */
  timeoutMs?: number | undefined;
  /**
   * An answer longer than this is not read: the call fails (8 MiB, above the largest page the
   * server sends, whose names and tags are bounded to 1 MiB).
   */
  maxAnswerBytes?: number | undefined;
}

/**
 * A method per operation (`client.getPlant({ path: { id } })`); a 2xx answer resolves to its
 * body (undefined for 204), anything else rejects with a PlantStoreError. A DELETE that gets 404
 * after a retry of an attempt whose answer was lost resolves: that attempt deleted it.
 */
export interface PlantStoreClient extends OperationMethods {
  /** Every stored plant in ascending id order, a page at a time (follows rel="next"). */
  plants(page?: { after?: bigint; limit?: number }): AsyncIterable<StoredPlant>;
  /** Any operation of the document by its operationId: the same as its method. */
  call<Op extends OperationId>(operationId: Op, ...input: InputArgs<Op>): Promise<Success<Op>>;
}

// Every operation of this API is safe to repeat: reads, creates (idempotent on id) and deletes.
const DEFAULT_RETRY: Required<RetryOptions> = { attempts: 4, maxDelayMs: 10_000, budgetMs: 30_000 };
const DEFAULT_MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export function createClient(options: ClientOptions): PlantStoreClient {
  let base = options.baseUrl;
  while (base.endsWith("/")) base = base.slice(0, -1);
  const transport: Transport = {
    fetch: options.fetch ?? fetch,
    token: options.token,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    timeoutMs: options.timeoutMs ?? 30_000,
    maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
  };

  /** Any operation: its answer's body when it is a 2xx, and the answer itself. */
  const exchange = async (operationId: OperationId, input: RawInput, target?: string) => {
    const entry: Entry = operationTable[operationId];
    const request = wireRequest(entry, input, target ?? urlFor(base, entry, input));
    return answerOf(entry, await sendWithRetries(transport, request));
  };

  const call = async <Op extends OperationId>(
    operationId: Op,
    ...[input]: InputArgs<Op>
  ): Promise<Success<Op>> =>
    (await exchange(operationId, (input ?? {}) as RawInput)).answer as Success<Op>;

  const methods = Object.fromEntries(
    (Object.keys(operationTable) as OperationId[]).map((operationId) => [
      operationId,
      (input?: RawInput) => exchange(operationId, input ?? {}).then(({ answer }) => answer),
    ]),
  ) as unknown as OperationMethods;

  return {
    ...methods,
    call,
    async *plants(page = {}) {
      const query = {
        ...(page.after === undefined ? {} : { after: page.after }),
        ...(page.limit === undefined ? {} : { limit: page.limit }),
      };
      let target: string | undefined;
      for (;;) {
        const { answer, response } = await exchange("listPlants", { query }, target);
        yield* answer as StoredPlant[];
        const next = nextLink(response.headers.get("link"));
        if (next === undefined) return;
        target = followable(base, next);
      }
    },
  };
}

/** A call's input as the wire sees it, whatever the operation. */
interface RawInput {
  path?: Readonly<Record<string, unknown>> | undefined;
  query?: Readonly<Record<string, unknown>> | undefined;
  header?: Readonly<Record<string, unknown>> | undefined;
  body?: unknown;
}

type Entry = (typeof operationTable)[OperationId];

function wireRequest(entry: Entry, input: RawInput, url: string): WireRequest {
  const body = input.body === undefined ? undefined : toJson(checkedBody(entry, input.body));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.header ?? {})) {
    if (value !== undefined) headers[name] = String(value);
  }
  const bodyType = "bodyType" in entry ? entry.bodyType : "application/json";
  return { method: entry.method, url, body, bodyType, headers };
}

/** A 2xx answer's body, parsed with its int64s exact, and the answer; otherwise the error. */
function answerOf(entry: Entry, { response, text, mayHaveActed }: Sent) {
  const int64 = (entry.int64InAnswers as Record<string, readonly Location[]>)[
    String(response.status)
  ];
  const isJson = (response.headers.get("content-type") ?? "").startsWith("application/json");
  const parsed = text === "" ? undefined : isJson ? fromJson(text, int64 ?? []) : text;
  // A 404 to a retried DELETE: our own earlier attempt deleted it before its answer was lost.
  const goneByUs = entry.method === "DELETE" && mayHaveActed && response.status === 404;
  if (response.ok || goneByUs) return { answer: response.ok ? parsed : undefined, response };
  throw new PlantStoreError(
    response.status,
    isJson ? (parsed as PlantStoreError["body"]) : { error: response.status, message: text },
    response.headers,
  );
}

function urlFor(base: string, entry: Entry, input: RawInput): string {
  const int64 = entry.int64Parameters as readonly string[];
  const text = (name: string, value: unknown): string => {
    if (int64.includes(name)) return String(exactInteger(name, value));
    return String(value);
  };
  const path = entry.path.replace(/\{([^{}/]+)\}/g, (_whole, name: string) => {
    const value = input.path?.[name];
    if (value === undefined) throw new TypeError(`path parameter ${name} is required`);
    return encodeURIComponent(text(name, value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined) query.set(name, text(name, value));
  }
  return `${base}${path}${query.size === 0 ? "" : `?${query}`}`;
}

/** The body with every int64 the document places in it checked: a bigint, or a safe number. */
function checkedBody(entry: Entry, body: unknown): unknown {
  const locations = entry.int64InBody as readonly Location[];
  const visit = (node: unknown, at: string[]): unknown => {
    const here = locations.some((location) => matches(location, at));
    if (here) return exactInteger(at.join("."), node);
    if (Array.isArray(node)) return node.map((item) => visit(item, [...at, "[*]"]));
    if (typeof node !== "object" || node === null) return node;
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, visit(v, [...at, k])]));
  };
  return visit(body, []);
}

/** An int64 to send: a bigint as is, a number only if it is a safe integer. */
function exactInteger(name: string, value: unknown): unknown {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && !Number.isSafeInteger(value)) {
    throw new TypeError(
      `${name} is ${value}, a number that cannot hold this integer exactly (beyond 2^53); pass a bigint, e.g. ${name}: 9007199254740993n`,
    );
  }
  return value;
}

/**
 * Where a next link leads: a path is the API's own (relative to `base`, prefix included, as the
 * document's paths are), an absolute URL must be on `base`'s origin — the token goes with it,
 * and must not go anywhere else.
 */
function followable(base: string, link: string): string {
  if (link.startsWith("/") && !link.startsWith("//")) return `${base}${link}`;
  const url = new URL(link, `${base}/`);
  if (url.origin !== new URL(base).origin) {
    throw new Error(`refusing to follow a next link to another origin (${url.origin})`);
  }
  return url.href;
}
