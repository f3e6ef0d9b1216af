// The types an operation's handler works with, all derived from generated/plants.ts (and so
// from the YAML): what it gets (parameters and body, int64 as bigint) and what it may answer.
import type { Operation } from "openapi-backend";
import type {
  operations,
  parametersWithDefaults,
  resourceOperations,
  servedOperations,
} from "../../generated/plants.ts";
import type { OperationRequestBody, OperationResponse } from "./responses.ts";

/** An operation the server answers (a webhook's operation is one it sends). */
export type OperationId = servedOperations & keyof operations;

type Parameters<Op extends OperationId> = operations[Op]["parameters"];

type In = "path" | "query" | "header";

/** The names of an operation's optional parameters of one kind that the server defaults. */
type Defaulted<Op extends OperationId, Where extends In> = Op extends keyof parametersWithDefaults
  ? Where extends keyof parametersWithDefaults[Op]
    ? parametersWithDefaults[Op][Where]
    : never
  : never;

/** Defaulted parameters are always there by the time the handler runs. */
type WithDefaults<P, Names> = [Names] extends [never]
  ? P
  : Omit<P, Names & keyof P> & Required<Pick<P, Names & keyof P>>;

/** One kind of parameter as the handler gets it; an empty object when the operation has none. */
type ParametersIn<Op extends OperationId, Where extends In> = [
  NonNullable<Parameters<Op>[Where]>,
] extends [never]
  ? Record<string, never>
  : WithDefaults<NonNullable<Parameters<Op>[Where]>, Defaulted<Op, Where>>;

/** What a handler gets: read, typed and validated against the document. */
export interface OperationInput<Op extends OperationId> {
  path: ParametersIn<Op, "path">;
  query: ParametersIn<Op, "query">;
  header: ParametersIn<Op, "header">;
  /** The JSON request body the document gives the operation; undefined when it takes none. */
  body: [OperationRequestBody<Op>] extends [never] ? undefined : OperationRequestBody<Op>;
}

/** What a handler knows of where it runs: its operation, as the document describes it. */
export interface OperationContext {
  operation: Operation;
}

/** An operation's handler: runs only for routed, authenticated, validated requests. */
export type OperationHandler<Op extends OperationId> = (
  input: OperationInput<Op>,
  context: OperationContext,
) => Promise<OperationResponse<Op>>;

/**
 * What a handler's function returns, written as its return type (`async (input): Answer<"x">
 * =>`): then an answer the document does not describe — a status, a body property or a header
 * it does not list — fails to compile, naming what is wrong. Without it, TypeScript checks the
 * inferred type only, and lets an extra body property through.
 */
export type Answer<Op extends OperationId> = Promise<OperationResponse<Op>>;

/**
 * A handler for each operation of the document that is not a plain action on a declared table
 * (those the generic handlers serve, src/handlers/resources.ts, may have one of their own): the
 * compiler names a missing or an extra one.
 */
export type OperationHandlers = {
  [Op in Exclude<OperationId, resourceOperations>]: OperationHandler<Op>;
} & { [Op in OperationId & resourceOperations]?: OperationHandler<Op> };
