// A malformed percent-encoding is 400 with the Error body wherever it appears: in a path
// parameter (the router refuses it) and in a query parameter's name or value (the operation's
// parameter reader refuses it, naming the parameter). Every operation of the document, read
// from it, so a new parameter is covered unchanged.
import { describe, expect, it } from "vitest";
import { AUTH, expectError, useTestApp } from "../helpers/app.ts";
import { type DocumentedOperation, documentedOperations } from "../helpers/document.ts";
import { storeEngines } from "../helpers/stores.ts";

const MALFORMED = ["%E0%A4%A", "%ZZ", "%", "%C3"];
const operations = documentedOperations();
const named = (where: string) =>
  operations.flatMap((operation) =>
    operation.parameters
      .filter((parameter) => parameter.in === where)
      .flatMap((parameter) =>
        MALFORMED.map((bad) => ({ ...operation, name: parameter.name ?? "", bad })),
      ),
  );

describe.each(storeEngines)("malformed percent-encoding ($name)", (engine) => {
  const app = useTestApp(engine);
  const send = (operation: DocumentedOperation, url: string) =>
    app().app.inject({
      method: operation.method as "GET",
      url,
      headers: { ...AUTH, "content-type": "application/json" },
      // A body for every operation that takes one, whatever its method.
      ...("requestBody" in operation.operation ? { payload: "{}" } : {}),
    });

  it("when the document is read, then it has query and path parameters to try", () => {
    expect(named("query").length).toBeGreaterThan(0);
    expect(named("path").length).toBeGreaterThan(0);
  });

  it.each(named("query"))(
    "when $method $template gets ?$name=$bad, then 400 names the query parameter",
    async (operation) => {
      const body = expectError(
        await send(operation, `${operation.path}?${operation.name}=${operation.bad}`),
        400,
      );
      expect(body.message).toBe(`query parameter ${operation.name} has malformed percent-encoding`);
    },
  );

  it.each(operations)(
    "when $method $template gets a malformed query parameter name, then 400 says so",
    async (operation) => {
      const body = expectError(await send(operation, `${operation.path}?%E0%A4%A=1`), 400);
      expect(body.message).toBe('query parameter name "%E0%A4%A" has malformed percent-encoding');
    },
  );

  it.each(named("path"))(
    "when $method $template gets $bad for {$name}, then 400 says the target is not valid",
    async (operation) => {
      // The other path parameters, if any, are given a plain value.
      const url = operation.template.replace(/\{([^{}/]+)\}/g, (_whole, name: string) =>
        name === operation.name ? operation.bad : "1",
      );
      const body = expectError(await send(operation, url), 400);
      expect(body.message).toMatch(/^the request target is not valid/);
    },
  );
});
