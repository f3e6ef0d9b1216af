// A conformance run: the document's request examples, schema-driven probes, credentials and
// scopes, and exact int64 ids, sent to a deployment within the run's bounds; every answer is
// also checked against the document (status, media type, body schema, required headers).
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { parseYaml } from "../openapi/document.ts";
import { createContractChecker } from "./contract-check.ts";
import { Bindings, bodyOf, documentExamples, type RequestExample } from "./examples.ts";
import { collectionsOf, idOf, idsInList, withId } from "./int64.ts";
import {
  asDocument,
  type DocumentedOperation,
  type OpenApiDocument,
  operationsOf,
  scopesOf,
  securityOf,
} from "./operations.ts";
import type { ConformanceOptions } from "./options.ts";
import { runProbes } from "./probes.ts";
import type { Check, RunResult } from "./results.ts";
import { type Answer, BudgetSpent, exchangeOf, isWrite, type Request, Sender } from "./sender.ts";

const PROGRESS_EVERY = 50;

export async function runConformance(
  options: ConformanceOptions,
  progress: (line: string) => void = () => {},
): Promise<RunResult> {
  const sender = new Sender(options);
  const checks: Check[] = [];
  const notes: string[] = [];
  const result = (): RunResult => ({
    baseUrl: options.baseUrl,
    checks,
    notes,
    requests: sender.sent,
    writes: sender.writes,
  });
  const document = await loadDocument(options, sender, checks);
  if (document === undefined) return result();
  const checker = createContractChecker(document);
  const auth = (token: string | undefined): Record<string, string> =>
    token === undefined ? {} : { authorization: `Bearer ${token}` };

  /** Sends, checks the answer against the document and `rules`, and records the check. */
  const check = async (
    operationId: string,
    name: string,
    request: Request,
    rules: (answer: Answer) => string[] = () => [],
  ): Promise<Answer> => {
    const answer = await sender.send(request);
    const broken =
      answer.status === 0
        ? [answer.body]
        : [...checker(exchangeOf(request, answer)).map(withoutWhere), ...rules(answer)];
    checks.push({ operationId, name, request, answer, broken });
    if (sender.sent % PROGRESS_EVERY === 0) {
      const failed = checks.filter((c) => c.broken.length > 0).length;
      progress(`${sender.sent} requests, ${checks.length} checks, ${failed} failed`);
    }
    return answer;
  };

  const operations = operationsOf(document).filter(
    (op) => options.operations.length === 0 || options.operations.includes(op.operationId),
  );
  const inScope = (op: DocumentedOperation) => options.allowWrites || !isWrite(op.method);
  // Without a token, a secured operation can only be checked for refusing one.
  const reachable = (op: DocumentedOperation) =>
    inScope(op) &&
    (options.token !== undefined || securityOf(asDocument(document), op).length === 0);
  const created: { path: string; remove: DocumentedOperation }[] = [];
  let idsTaken = 0n;
  const nextId = (): bigint | undefined => {
    const id = options.idRange.from + idsTaken;
    if (id > options.idRange.to) return undefined;
    idsTaken++;
    return id;
  };
  // The probes last: they may spend what is left of --max-writes.
  const steps = [() => examples(), () => exactIds(), () => credentials(), () => probes()];
  try {
    // A step cut short by a spent budget leaves the next ones their reads.
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        if (!(error instanceof BudgetSpent)) throw error;
        notes.push(`a step stopped early: ${error.message}`);
      }
    }
  } finally {
    await cleanUp();
  }
  return result();

  async function examples(): Promise<void> {
    const bindings = new Bindings(document as object);
    const chosen = new Set(operations.map((op) => op.operationId));
    const all = documentExamples(document as object)
      .everyRequestExample()
      .filter((example) => chosen.has(example.operation.operationId));
    for (const example of all) {
      if (!options.fresh && !comparableOnAnyData(example)) continue;
      if (!inScope(example.operation)) continue;
      if (example.credentials && !reachable(example.operation)) continue;
      for (const setup of example.setup) {
        const headers = {
          ...auth(options.token),
          ...(setup.body === undefined ? {} : { "content-type": "application/json" }),
        };
        await check(example.operation.operationId, `${example.name} (setup)`, {
          method: setup.method,
          target: bindings.apply(setup.target),
          headers,
          ...(setup.body === undefined ? {} : { body: bindings.apply(setup.body) }),
        });
      }
      const { media } = bodyOf(example.operation);
      const request: Request = {
        method: example.operation.method,
        target: bindings.apply(example.target),
        headers: {
          ...(example.credentials ? auth(options.token) : {}),
          ...(example.body === undefined ? {} : { "content-type": media ?? "application/json" }),
          ...example.headers,
        },
        ...(example.body === undefined ? {} : { body: bindings.apply(example.body) }),
      };
      await check(example.operation.operationId, `example ${example.name}`, request, (answer) =>
        compareWithExample(example, answer, bindings),
      );
    }
  }

  /**
   * On a deployment with data of its own, an example is compared only where its answer cannot
   * depend on what is stored: a read answered with an error (a 4xx) or not modified.
   */
  function comparableOnAnyData(example: RequestExample): boolean {
    return (
      !isWrite(example.operation.method) &&
      example.setup.length === 0 &&
      example.answer.status >= 300
    );
  }

  function compareWithExample(example: RequestExample, answer: Answer, bindings: Bindings) {
    // Bodies are compared only for the same status: another status says enough.
    if (answer.status !== example.answer.status) {
      return [`the example answers ${example.answer.status}, the deployment ${answer.status}`];
    }
    const broken: string[] = [];
    if (example.answer.body === undefined || example.answer.media?.includes("json") !== true) {
      return broken;
    }
    let actual: unknown;
    try {
      actual = JSON.parse(answer.body);
    } catch {
      return broken;
    }
    const expected = bindings.expected(example.answer, actual);
    if (!isDeepStrictEqual(actual, expected)) {
      broken.push(`the body differs from the example: ${JSON.stringify(expected).slice(0, 300)}`);
    }
    return broken;
  }

  async function probes(): Promise<void> {
    await runProbes({
      document: document as object,
      operations: operations.filter(reachable),
      collections: collectionsOf(operations),
      options,
      auth: auth(options.token),
      nextId,
      check,
      created: (path, { remove }) => {
        if (remove !== undefined) created.push({ path, remove });
      },
      note: (line) => notes.push(line),
    });
  }

  async function credentials(): Promise<void> {
    for (const operation of operations.filter(inScope)) {
      if (securityOf(asDocument(document), operation).length === 0) continue;
      // An invalid body: if a deployment lets the request through, nothing is written.
      const body =
        isWrite(operation.method) && bodyOf(operation).media !== undefined ? "{}" : undefined;
      const request = (headers: Record<string, string>): Request => ({
        method: operation.method,
        target: operation.path,
        headers: {
          ...headers,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body }),
      });
      await check(operation.operationId, "no token", request({}), ({ status }) =>
        status === 401 ? [] : [`a request without a token is answered ${status}, not 401`],
      );
      if (options.tokenWithoutScope !== undefined && scopesOf(operation).length > 0) {
        await check(
          operation.operationId,
          "token without the scope",
          request(auth(options.tokenWithoutScope)),
          ({ status }) =>
            status === 403
              ? []
              : [
                  `a token without ${scopesOf(operation).join(", ")} is answered ${status}, not 403`,
                ],
        );
      }
    }
  }

  async function exactIds(): Promise<void> {
    for (const collection of collectionsOf(operations)) {
      const { list, item, create, remove } = collection;
      const itemPath = (id: string) =>
        item.template.replace(`{${collection.parameter}}`, encodeURIComponent(id));
      const readBack = async (id: string, why: string) =>
        check(
          item.operationId,
          `id ${id} reads back (${why})`,
          {
            method: "GET",
            target: itemPath(id),
            headers: auth(options.token),
          },
          (answer) => {
            if (answer.status !== 200) return [`id ${id} (${why}) is answered ${answer.status}`];
            const got = idOf(answer.body);
            return got === id ? [] : [`id ${id} (${why}) reads back as ${got ?? "no id"}`];
          },
        );
      if (options.allowWrites && create !== undefined) {
        const example = Object.values(bodyOf(create).examples)[0]?.value;
        const id = example === undefined ? undefined : nextId();
        if (example !== undefined && id !== undefined) {
          const body = withId(JSON.stringify(example), id);
          const answer = await check(
            create.operationId,
            `create id ${id} (past 2^53)`,
            {
              method: "POST",
              target: create.template,
              headers: { ...auth(options.token), "content-type": "application/json" },
              body,
            },
            (a) => {
              const got = idOf(a.body);
              return a.status < 300 && got !== undefined && got !== String(id)
                ? [`created id ${id} is answered as ${got}`]
                : [];
            },
          );
          if (answer.status < 300 && remove !== undefined)
            created.push({ path: itemPath(String(id)), remove });
          if (answer.status < 300) await readBack(String(id), "created");
        }
      }
      if (!reachable(list)) continue;
      const listed = await check(list.operationId, "list for ids", {
        method: "GET",
        target: list.template,
        headers: auth(options.token),
      });
      for (const id of idsInList(listed.body).slice(0, 3)) await readBack(id, "listed");
    }
  }

  async function cleanUp(): Promise<void> {
    for (const { path, remove } of created.splice(0)) {
      // Past the budgets too: what the run created must go.
      sender.allowCleanUp();
      await check(
        remove.operationId,
        "delete what the run created",
        {
          method: "DELETE",
          target: path,
          headers: auth(options.token),
        },
        ({ status }) => (status < 300 ? [] : [`deleting ${path} is answered ${status}`]),
      );
    }
  }
}

/** The checker's lines start with "METHOD target → status: "; the report says that itself. */
const withoutWhere = (problem: string): string => problem.replace(/^[^:]*→ \d+: /, "");

async function loadDocument(
  options: ConformanceOptions,
  sender: Sender,
  checks: Check[],
): Promise<OpenApiDocument | undefined> {
  if (options.document !== "deployment") {
    return asDocument(parseYaml(readFileSync(options.document.file, "utf8")));
  }
  const request: Request = { method: "GET", target: "/openapi.json", headers: {} };
  const answer = await sender.send(request);
  try {
    if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
    return asDocument(JSON.parse(answer.body));
  } catch (error) {
    checks.push({
      operationId: "(document)",
      name: "the published document",
      request,
      answer,
      broken: [`/openapi.json cannot be read: ${(error as Error).message}`],
    });
    return undefined;
  }
}
