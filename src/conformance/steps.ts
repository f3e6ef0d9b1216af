// A run's steps: the document's request examples, exact int64 ids past 2^53, what the declared
// tables keep, credentials and scopes, then the schema-driven probes (probes.ts). Each sends
// through the run's check.
import { isDeepStrictEqual } from "node:util";
import type { Document } from "openapi-backend";
import { dereference } from "../openapi/backend.ts";
import { type ApiData, apiData } from "../openapi/data.ts";
import { parseYaml } from "../openapi/document.ts";
import { keyColumn } from "../store/tables.ts";
import { Bindings } from "./bindings.ts";
import { bodyOf, documentExamples, type RequestExample } from "./examples.ts";
import { type Collection, collectionsOf, idOf, idsInList, withId } from "./int64.ts";
import {
  asDocument,
  type DocumentedOperation,
  type OpenApiDocument,
  scopesOf,
  securityOf,
} from "./operations.ts";
import { runProbes } from "./probes.ts";
import { auth, type ConformanceRun } from "./run-context.ts";
import { type Answer, isWrite, type Request } from "./sender.ts";
import { checkStoredData } from "./stored-data.ts";

export async function examples(run: ConformanceRun): Promise<void> {
  const { options } = run;
  const bindings = new Bindings(run.document as object);
  const chosen = new Set(run.operations.map((op) => op.operationId));
  const all = documentExamples(run.document as object)
    .everyRequestExample()
    .filter((example) => chosen.has(example.operation.operationId));
  for (const example of all) {
    if (!options.fresh && !comparableOnAnyData(example)) continue;
    // A setup makes the state the example needs: a run that may not write leaves it out.
    if (!run.inScope(example.operation) || (!run.writing && example.setup.length > 0)) continue;
    if (example.credentials && !run.reachable(example.operation)) continue;
    for (const setup of example.setup) {
      const headers = {
        ...auth(options.token),
        ...(setup.body === undefined ? {} : { "content-type": "application/json" }),
      };
      await run.check(example.operation.operationId, `${example.name} (setup)`, {
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
    await run.check(example.operation.operationId, `example ${example.name}`, request, (answer) =>
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
    !isWrite(example.operation.method) && example.setup.length === 0 && example.answer.status >= 300
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

export async function probes(run: ConformanceRun): Promise<void> {
  await runProbes({
    document: run.document as object,
    operations: run.operations.filter((op) => run.reachable(op)),
    collections: collectionsOf(run.operations),
    options: run.options,
    writing: run.writing,
    auth: auth(run.options.token),
    nextId: () => run.nextId(),
    check: (...args) => run.check(...args),
    created: (path, { remove }) => {
      if (remove !== undefined) run.created.push({ path, remove });
    },
    note: (line) => run.notes.push(line),
  });
}

export async function credentials(run: ConformanceRun): Promise<void> {
  const { options } = run;
  for (const operation of run.operations.filter((op) => run.inScope(op))) {
    if (securityOf(asDocument(run.document), operation).length === 0) continue;
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
    const open = await openOnDeployment(run, operation);
    await run.check(operation.operationId, "no token", request({}), ({ status }) => {
      if (status === 401) return [];
      if (open && status < 300) return [];
      return [`a request without a token is answered ${status}, not 401`];
    });
    if (options.tokenWithoutScope !== undefined && scopesOf(operation).length > 0) {
      await run.check(
        operation.operationId,
        "token without the scope",
        request(auth(options.tokenWithoutScope)),
        ({ status }) =>
          status === 403
            ? []
            : [`a token without ${scopesOf(operation).join(", ")} is answered ${status}, not 403`],
      );
    }
  }
}

/**
 * Whether, checked against a --document file, the operation is one a deployment may serve
 * open: the file secures it only with schemes of its own (not the document's default, such as
 * GET /metrics' metricsToken, which a server without one leaves off), and the deployment's own
 * published document lists no requirement for it.
 */
async function openOnDeployment(
  run: ConformanceRun,
  operation: DocumentedOperation,
): Promise<boolean> {
  if (run.options.document === "deployment") return false;
  const document = asDocument(run.document);
  const defaults = new Set((document.security ?? []).flatMap((r) => Object.keys(r as object)));
  const own = securityOf(document, operation).flatMap((r) => Object.keys(r as object));
  if (own.length === 0 || own.some((scheme) => defaults.has(scheme))) return false;
  run.published ??= publishedDocument(run);
  const published = await run.published;
  const served = published?.paths[operation.template]?.[operation.method.toLowerCase() as "get"] as
    | { security?: unknown[] }
    | undefined;
  const isOpen = served?.security !== undefined && served.security.length === 0;
  if (isOpen) {
    run.notes.push(
      `${operation.operationId} is served open, as the deployment's /openapi.json says (${own.join(", ")} not configured)`,
    );
  }
  return isOpen;
}

async function publishedDocument(run: ConformanceRun): Promise<OpenApiDocument | undefined> {
  const answer = await run.sender.send({ method: "GET", target: "/openapi.json", headers: {} });
  try {
    return answer.status === 200 && answer.unread === undefined
      ? asDocument(parseYaml(answer.body))
      : undefined;
  } catch {
    return undefined;
  }
}

export async function exactIds(run: ConformanceRun): Promise<void> {
  for (const collection of collectionsOf(run.operations)) {
    const { list, item } = collection;
    const readBack = async (id: string, why: string) =>
      run.check(
        item.operationId,
        `id ${id} reads back (${why})`,
        { method: "GET", target: itemPath(collection, id), headers: auth(run.options.token) },
        (answer) => {
          if (answer.status !== 200) return [`id ${id} (${why}) is answered ${answer.status}`];
          const got = idOf(answer.body);
          return got === id ? [] : [`id ${id} (${why}) reads back as ${got ?? "no id"}`];
        },
      );
    const id = await createWithExactId(run, collection);
    if (id !== undefined) await readBack(id, "created");
    if (!run.reachable(list)) continue;
    const listed = await run.check(list.operationId, "list for ids", {
      method: "GET",
      target: list.template,
      headers: auth(run.options.token),
    });
    for (const id of idsInList(listed.body).slice(0, 3)) await readBack(id, "listed");
  }
}

const itemPath = (collection: Collection, id: string) =>
  collection.item.template.replace(`{${collection.parameter}}`, encodeURIComponent(id));

/** Creates one of the collection with the next id of --id-range; its id, once created. */
async function createWithExactId(
  run: ConformanceRun,
  collection: Collection,
): Promise<string | undefined> {
  const { create, remove } = collection;
  if (!run.writing || create === undefined) return undefined;
  const example = Object.values(bodyOf(create).examples)[0]?.value;
  const id = example === undefined ? undefined : run.nextId();
  if (example === undefined || id === undefined) return undefined;
  const answer = await run.check(
    create.operationId,
    `create id ${id} (past 2^53)`,
    {
      method: "POST",
      target: create.template,
      headers: { ...auth(run.options.token), "content-type": "application/json" },
      body: withId(JSON.stringify(example), id),
    },
    (a) => {
      const got = idOf(a.body);
      return a.status < 300 && got !== undefined && got !== String(id)
        ? [`created id ${id} is answered as ${got}`]
        : [];
    },
  );
  if (answer.status >= 300) return undefined;
  if (remove !== undefined) run.created.push({ path: itemPath(collection, String(id)), remove });
  return String(id);
}

/**
 * Every declared table (x-table) keeps what it accepts: each member of a create and of a merge
 * patch reads back as sent, and each filter returns exactly the rows that match
 * (stored-data.ts). The rows' keys come from --id-range, so only int64-keyed tables are checked.
 */
export async function storedData(run: ConformanceRun): Promise<void> {
  if (!run.writing) return;
  let data: ApiData;
  try {
    data = apiData(await dereference(structuredClone(run.document) as Document));
  } catch (error) {
    run.notes.push(`stored data not checked: ${(error as Error).message}`);
    return;
  }
  const chosen = new Set(run.operations.map((op) => op.operationId));
  const findings = await checkStoredData(
    run.document,
    { ...data, operations: data.operations.filter((op) => chosen.has(op.operationId)) },
    async (method, target, body, operationId) => {
      const answer = await run.check(operationId, `stored data: ${method} ${target}`, {
        method,
        target,
        headers: {
          ...auth(run.options.token),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body }),
      });
      return { status: answer.status, text: answer.body, link: answer.headers["link"] };
    },
    run.options.seed,
    {
      key: (table) => (keyColumn(table).kind === "int64" ? run.nextId() : undefined),
      note: (line) => {
        if (!run.notes.includes(line)) run.notes.push(line);
      },
    },
  );
  for (const finding of findings) {
    run.record("(stored data)", "every member kept", NO_REQUEST, [finding]);
  }
}

const NO_REQUEST: Request = { method: "-", target: "", headers: {} };
