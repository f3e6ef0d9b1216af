// Every JSON Schema keyword a document may use, each failure said in one sentence: a table of
// schema, request and the sentence the client gets (validation-messages.yaml). Validators are compiled as the server
// compiles them (openapi-backend's, with src/openapi/backend.ts's options, for an operation
// built from the row) and the request is read as the server reads it (src/http/inputs.ts).
import { readFileSync } from "node:fs";
import { type Document, OpenAPIValidator, type Operation } from "openapi-backend";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseBody } from "../../src/http/body.ts";
import { inputReader } from "../../src/http/inputs.ts";
import { VALIDATOR_OPTIONS } from "../../src/openapi/validators.ts";

const validator = new OpenAPIValidator({
  definition: { openapi: "3.1.0", info: { title: "rows", version: "1" }, paths: {} } as Document,
  ...VALIDATOR_OPTIONS,
});

/** What a client is told for `body` sent to an operation whose body has `schema`. */
function bodyMessage(schema: unknown, body: string | undefined): string {
  const operation = {
    operationId: "row",
    method: "post",
    path: "/row",
    requestBody: { required: true, content: { "application/json": { schema } } },
  } as unknown as Operation;
  return messageFor(operation, {}, body);
}

/** What a client is told for a query `limit=value` when `limit` has `schema`. */
function queryMessage(schema: unknown, value: string): string {
  const operation = {
    operationId: "row",
    method: "get",
    path: "/row",
    parameters: [{ name: "limit", in: "query", schema }],
  } as unknown as Operation;
  return messageFor(operation, { limit: value }, undefined);
}

function messageFor(operation: Operation, query: Record<string, string>, body?: string): string {
  const validators = validator.buildRequestValidatorsForOperation(operation) ?? [];
  const reader = inputReader(operation, { none: validators, byType: {} });
  const headers = { "content-type": "application/json" };
  const read = reader.read({
    target: operation.path,
    params: {},
    query,
    headers,
    body: body === undefined ? undefined : parseBody(headers, Buffer.from(body)),
  });
  return read.ok ? "valid" : read.problem.message;
}

interface Row {
  keyword: string;
  schema: unknown;
  says: string;
}
const table = parse(
  readFileSync(new URL("./validation-messages.yaml", import.meta.url), "utf8"),
) as {
  body: (Row & { body?: string })[];
  query: (Row & { value: string })[];
};

describe("validation messages, one sentence per failure", () => {
  it.each(table.body)("when a body meets $keyword, then the client is told one sentence", (row) => {
    expect(bodyMessage(row.schema, row.body)).toBe(row.says);
  });

  it.each(table.query)(
    "when a query parameter meets $keyword, then the sentence names it",
    (row) => {
      expect(queryMessage(row.schema, row.value)).toBe(row.says);
    },
  );

  it("when thousands of items each fail an anyOf, then the first ten are said and the rest counted", () => {
    const schema = {
      type: "array",
      items: { anyOf: [{ type: "string" }, { type: "object", required: ["id"] }] },
    };
    const body = JSON.stringify(Array.from({ length: 20_000 }, () => 1));
    const message = bodyMessage(schema, body);
    expect(message.split("; ")).toHaveLength(11);
    expect(message).toMatch(/^0 must be a string or an object \(got number\); 1 must be/);
    expect(message).toMatch(/; and 19990 more$/);
  });

  it("when a composed schema fails, then no sentence reads as if every alternative were required", () => {
    const messages = table.body.map((row) => bodyMessage(row.schema, row.body));
    expect(messages.filter((m) => m.includes("must match a schema in"))).toEqual([]);
  });
});
