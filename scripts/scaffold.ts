// The scaffold `npm run generate` lays down for each operation of the document that has no
// handler yet: src/handlers/<operation>.ts answering 501 with the Error body, its line in
// src/handlers/index.ts, and test/contract/<operation>.test.ts listing the operation's own
// documented answers as todos. A plain action on a declared table (x-action) gets none: the
// generic handlers serve it (src/handlers/resources.ts), and its table is the declaration's
// (scripts/migration.ts). An existing file is never overwritten, and what is written is
// formatted by the project's Biome, so it is lint-clean as laid down.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { HTTP_METHODS } from "../src/openapi/document.ts";

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
export const HANDLER_INDEX = root("src/handlers/index.ts");

interface ResponseObject {
  $ref?: string;
  description?: string;
}
interface OperationObject {
  operationId?: string;
  "x-action"?: string;
  summary?: string;
  tags?: string[];
  responses?: Record<string, ResponseObject>;
}
interface Document {
  paths?: Record<string, Record<string, unknown>>;
  components?: { responses?: Record<string, ResponseObject> };
}

export interface ScaffoldedOperation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  tags: string[];
  /** [status, the first sentence of its description], in the document's order. */
  answers: [string, string][];
}

/**
 * Answers every operation shares by $ref, whose suites (auth, routing, limits, overload, the
 * error path) cover every operation at once: the scaffold lists no todo for them.
 */
export const SHARED_STATUSES: ReadonlySet<string> = new Set([
  "401",
  "405",
  "408",
  "429",
  "431",
  "500",
  "503",
]);

/** Every operation of the document, with what its scaffold needs. */
export function operationsOf(document: Document): ScaffoldedOperation[] {
  const found: ScaffoldedOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (operation?.operationId === undefined || operation["x-action"] !== undefined) continue;
      const answers = Object.entries(operation.responses ?? {})
        .filter(([status, response]) => response.$ref === undefined || !SHARED_STATUSES.has(status))
        .map(([status, response]): [string, string] => {
          const resolved =
            response.$ref === undefined
              ? response
              : document.components?.responses?.[response.$ref.split("/").at(-1) ?? ""];
          return [status, firstSentence(resolved?.description ?? "")];
        });
      found.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? "",
        tags: operation.tags ?? [],
        answers,
      });
    }
  }
  return found;
}

const firstSentence = (text: string): string =>
  (
    text
      .replace(/\s+/g, " ")
      .trim()
      .split(/(?<=\.) /)[0] ?? ""
  ).replace(/\.$/, "");

/** createPlant → create-plant: the file name of an operation's handler and tests. */
export const fileNameOf = (operationId: string): string =>
  operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`).replace(/^-/, "");

export function handlerSource({ operationId, method, path, summary }: ScaffoldedOperation): string {
  return `// ${method} ${path}: ${summary || operationId}. Scaffolded by \`npm run generate\`: it answers 501
// until written. The input is typed and validated from the document; the return type makes
// any answer the document does not describe a compile error.
import { Problem } from "../http/errors.ts";
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";

export function ${operationId}(_deps: HandlerDeps): OperationHandler<"${operationId}"> {
  return async (_input): Answer<"${operationId}"> => {
    throw new Problem(501, "${method} ${path} is not implemented yet");
  };
}
`;
}

export function contractTestSource({
  operationId,
  method,
  path,
  answers,
}: ScaffoldedOperation): string {
  const todos = answers.map(
    ([status, description]) =>
      `  it.todo(${JSON.stringify(`when …, then ${status}${description === "" ? "" : `: ${description}`}`)});`,
  );
  return `// ${method} ${path} (${operationId}): one case per answer of the operation's own, scaffolded
// by \`npm run generate\` as todos (the shared answers by $ref have suites of their own). See
// test/contract/plants.test.ts for how cases are written (createTestApp, on every engine).
import { describe, it } from "vitest";

describe(${JSON.stringify(`${method} ${path} (${operationId})`)}, () => {
${todos.join("\n")}
});
`;
}

/** The handler index with an operation's import and entry added. */
export function withIndexEntry(index: string, operationId: string): string {
  const importLine = `import { ${operationId} } from "./${fileNameOf(operationId)}.ts";\n`;
  const lastImport = index.lastIndexOf("\nimport {");
  const afterImports = index.indexOf("\n", lastImport + 1) + 1;
  const end = index.lastIndexOf("\n  };\n}");
  if (lastImport === -1 || end === -1) {
    throw new Error(
      `${HANDLER_INDEX} is not shaped as the scaffold expects (imports, then return { … };)`,
    );
  }
  return `${index.slice(0, afterImports)}${importLine}${index.slice(afterImports, end)}\n    ${operationId}: ${operationId}(deps),${index.slice(end)}`;
}

/** Whether the handler index names the operation. */
export const indexNames = (index: string, operationId: string): boolean =>
  index.split("\n").some((line) => line.trimStart().startsWith(`${operationId}:`));

/** What a scaffold wrote. */
export interface Scaffolded {
  written: string[];
}

/** Lays down what is missing; returns the files it wrote. */
export function scaffold(document: Document): Scaffolded {
  const written: string[] = [];
  const writeNew = (path: string, text: string) => {
    if (existsSync(path)) return;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    written.push(path);
  };
  const fresh = operationsOf(document).filter(
    (operation) => !indexNames(readFileSync(HANDLER_INDEX, "utf8"), operation.operationId),
  );
  for (const operation of fresh) {
    const name = fileNameOf(operation.operationId);
    writeNew(root(`src/handlers/${name}.ts`), handlerSource(operation));
    writeNew(root(`test/contract/${name}.test.ts`), contractTestSource(operation));
    const index = readFileSync(HANDLER_INDEX, "utf8");
    writeFileSync(HANDLER_INDEX, withIndexEntry(index, operation.operationId));
    if (!written.includes(HANDLER_INDEX)) written.push(HANDLER_INDEX);
  }
  formatted(written);
  return { written };
}

/** The files formatted (imports sorted too) by the project's Biome, as `npm run format` would. */
export function formatted(paths: readonly string[]): void {
  if (paths.length === 0) return;
  const biome = root("node_modules/.bin/biome");
  const done = spawnSync(biome, ["check", "--write", ...paths], {
    cwd: root("."),
    encoding: "utf8",
  });
  if (done.status !== 0) {
    throw new Error(
      `biome check --write refused what the scaffold wrote:\n${done.stdout}${done.stderr}`,
    );
  }
}
