// Adding an operation as a newcomer would, on a copy of the repository: edit the YAML, run
// `npm run generate`, and the new operation is routed, typed and answered 501 by a scaffolded
// handler, with its contract tests listed as todos; nothing already written is overwritten.
// And a document generate cannot type is refused, naming where.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { int64AsBigint, untypedPlaces } from "../../scripts/generate.ts";
import { REPO_ROOT } from "../helpers/server-process.ts";

const COPIED = [
  "src",
  "scripts",
  "openapi",
  "generated",
  "package.json",
  "tsconfig.json",
  "docs",
  "biome.json",
  ".gitignore",
  "test/helpers",
  "test/global-setup.ts",
];

function run(cwd: string, command: string, args: string[]) {
  const done = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000 });
  return { code: done.status, output: `${done.stdout}${done.stderr}` };
}

describe("npm run generate, for an operation added to the YAML", () => {
  const copy = mkdtempSync(join(tmpdir(), "plantstore-scaffold-"));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it("when GET /plants/count is added and generate runs, then it has a handler answering 501, its line in the index and its todo tests, the whole compiles, and a second run overwrites nothing", async () => {
    for (const entry of COPIED)
      cpSync(join(REPO_ROOT, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules"), join(copy, "node_modules"));
    const yamlPath = join(copy, "openapi/plants.yaml");
    const document = parseDocument(readFileSync(yamlPath, "utf8"));
    document.setIn(["paths", "/plants/count"], {
      get: {
        operationId: "countPlants",
        summary: "Count the plants",
        "x-required-scopes": ["plants:read"],
        responses: {
          "200": {
            description: "How many plants are stored.",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["count"],
                  properties: { count: { type: "integer", format: "int64" } },
                },
              },
            },
          },
          "401": { $ref: "#/components/responses/Unauthorized" },
        },
      },
    });
    writeFileSync(yamlPath, document.toString());

    const generated = run(copy, "npx", ["tsx", "scripts/generate.ts"]);
    expect(generated.code, generated.output).toBe(0);
    const handler = readFileSync(join(copy, "src/handlers/count-plants.ts"), "utf8");
    expect(handler).toContain('OperationHandler<"countPlants">');
    expect(handler).toContain("new Problem(501,");
    const index = readFileSync(join(copy, "src/handlers/index.ts"), "utf8");
    expect(index).toContain('import { countPlants } from "./count-plants.ts";');
    expect(index).toContain("countPlants: countPlants(deps),");
    const tests = readFileSync(join(copy, "test/contract/count-plants.test.ts"), "utf8");
    expect(tests).toContain('it.todo("when …, then 200: How many plants are stored")');
    // The shared answers by $ref (401 here) have suites of their own: no todo for them.
    expect(tests).not.toContain("then 401");
    expect(tests).not.toContain("buildTestApp");

    // Compiles as scaffolded: the handler is typed from the regenerated document.
    writeFileSync(
      join(copy, "tsconfig.check.json"),
      JSON.stringify({
        extends: "./tsconfig.json",
        include: ["src", "generated", "test/contract/count-plants.test.ts"],
      }),
    );
    const compiled = run(copy, "npx", ["tsc", "--noEmit", "-p", "tsconfig.check.json"]);
    expect(compiled.code, compiled.output).toBe(0);
    const linted = run(copy, "npx", ["biome", "check", ...scaffoldedFiles(generated.output)]);
    expect(linted.code, linted.output).toBe(0);

    // The app built from the copy routes it, authenticates it, and answers 501 with the Error body.
    const probe = join(copy, "probe.ts");
    writeFileSync(
      probe,
      [
        'import { buildApp } from "./src/app.ts";',
        'import { createAuthenticator } from "./src/auth/authenticator.ts";',
        'import { openStore } from "./src/store/open.ts";',
        `const store = await openStore({ engine: "sqlite", path: ${JSON.stringify(join(copy, "probe.db"))} }, { startupTimeoutMs: 0 });`,
        "const app = await buildApp({",
        "  store,",
        '  authenticator: (log) => createAuthenticator({ staticTokens: ["probe-token-0123456789"], tokens: store.tokens, jwt: undefined, log }),',
        '  logLevel: "silent",',
        "});",
        'const answer = await app.inject({ method: "GET", url: "/plants/count", headers: { authorization: "Bearer probe-token-0123456789" } });',
        "console.log(JSON.stringify({ status: answer.statusCode, body: answer.json() }));",
        "await app.close();",
        "await store.close();",
      ].join("\n"),
    );
    const probed = run(copy, "npx", ["tsx", "probe.ts"]);
    expect(probed.code, probed.output).toBe(0);
    expect(JSON.parse(probed.output.trim().split("\n").at(-1) ?? "")).toEqual({
      status: 501,
      body: { error: 501, message: "GET /plants/count is not implemented yet" },
    });

    // Written by hand since: a second run leaves the handler, its tests and the index as they are.
    writeFileSync(join(copy, "src/handlers/count-plants.ts"), `${handler}// written by hand\n`);
    const again = run(copy, "npx", ["tsx", "scripts/generate.ts"]);
    expect(again.code, again.output).toBe(0);
    expect(readFileSync(join(copy, "src/handlers/count-plants.ts"), "utf8")).toContain(
      "// written by hand",
    );
    expect(readFileSync(join(copy, "src/handlers/index.ts"), "utf8")).toBe(index);
    expect(readFileSync(join(copy, "test/contract/count-plants.test.ts"), "utf8")).toBe(tests);
  }, 180_000);

  it("when a new tag's parent/child resource is added and generate runs, then its store is scaffolded (interface, a stub per engine, a contract suite), lint-clean and compiling, with the lines for the shared store files printed, and the existing stores untouched", async () => {
    const yamlPath = join(copy, "openapi/plants.yaml");
    const document = parseDocument(readFileSync(yamlPath, "utf8"));
    document.addIn(["tags"], { name: "children", description: "A parent's children." });
    const unauthorized = { $ref: "#/components/responses/Unauthorized" };
    document.setIn(["paths", "/children"], {
      post: {
        operationId: "createChild",
        tags: ["children"],
        summary: "Create a child",
        "x-required-scopes": ["plants:write"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["parentId"],
                properties: {
                  parentId: { type: "integer", format: "int64", "x-references": "plants" },
                },
              },
            },
          },
        },
        responses: {
          "204": { description: "The child is stored." },
          "401": unauthorized,
          "422": {
            description: "`parentId` names no stored plant.",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/Error" } },
            },
          },
        },
      },
    });
    writeFileSync(yamlPath, document.toString());
    const before = readFileSync(join(copy, "src/store/writes.ts"), "utf8");

    const generated = run(copy, "npx", ["tsx", "scripts/generate.ts"]);
    expect(generated.code, generated.output).toBe(0);
    const store = readFileSync(join(copy, "src/store/children.ts"), "utf8");
    expect(store).toContain("export interface ChildrenStore {");
    expect(store).toContain("createChild(): Promise<never>;");
    for (const engine of ["sqlite", "postgres"]) {
      const stub = readFileSync(join(copy, `src/store/${engine}-children.ts`), "utf8");
      expect(stub).toContain("ChildrenStore.createChild is not written yet");
    }
    const suite = readFileSync(join(copy, "test/store/children-store.test.ts"), "utf8");
    expect(suite).toContain("describe.each(storeEngines)");
    expect(suite).toContain('it.todo("when createChild …, then …")');
    const tests = readFileSync(join(copy, "test/contract/create-child.test.ts"), "utf8");
    expect(tests).toContain("then 422: `parentId` names no stored plant");
    expect(tests).not.toContain("then 401");
    // The shared files are printed, not edited: another change may be under way in them.
    expect(generated.output).toContain(
      "export interface Writes extends WebhookWrites, ChildrenWrites {",
    );
    expect(generated.output).toContain("children: createSqliteChildrenStore(),");
    expect(readFileSync(join(copy, "src/store/writes.ts"), "utf8")).toBe(before);
    // Existing tags (plants, Webhooks…) have handlers: no store is scaffolded for them.
    expect(scaffoldedFiles(generated.output).filter((f) => f.includes("src/store/"))).toEqual([
      join(copy, "src/store/children.ts"),
      join(copy, "src/store/sqlite-children.ts"),
      join(copy, "src/store/postgres-children.ts"),
    ]);

    const linted = run(copy, "npx", ["biome", "check", ...scaffoldedFiles(generated.output)]);
    expect(linted.code, linted.output).toBe(0);
    writeFileSync(
      join(copy, "tsconfig.check.json"),
      JSON.stringify({
        extends: "./tsconfig.json",
        include: [
          "src",
          "generated",
          "test/store/children-store.test.ts",
          "test/helpers",
          "test/global-setup.ts",
        ],
      }),
    );
    const compiled = run(copy, "npx", ["tsc", "--noEmit", "-p", "tsconfig.check.json"]);
    expect(compiled.code, compiled.output).toBe(0);
  }, 180_000);
});

/** The files a generate run says it scaffolded. */
const scaffoldedFiles = (output: string): string[] =>
  output.split("\n").flatMap((line) => (line.startsWith("scaffolded ") ? [line.slice(11)] : []));

describe("a document generate cannot type", () => {
  it("when a schema says 'at least one of' with required-only branches, or gives a property no type, then it is refused naming each place", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plantstore-untyped-"));
    try {
      const path = join(dir, "untyped.yaml");
      writeFileSync(
        path,
        JSON.stringify({
          openapi: "3.1.0",
          info: { title: "t", version: "1" },
          paths: {
            "/x": {
              patch: {
                operationId: "patchX",
                requestBody: {
                  content: {
                    "application/merge-patch+json": {
                      schema: { $ref: "#/components/schemas/PlantPatch" },
                    },
                  },
                },
                responses: {
                  "200": {
                    description: "ok",
                    content: {
                      "application/json": {
                        schema: {
                          type: "object",
                          properties: {
                            free: {},
                            open: { type: "object", additionalProperties: true },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
          components: {
            schemas: {
              PlantPatch: {
                type: "object",
                properties: { name: { type: "string" }, tag: { type: ["string", "null"] } },
                anyOf: [{ required: ["name"] }, { required: ["tag"] }],
              },
            },
          },
        }),
      );
      const ast = await openapiTS(new URL(`file://${path}`), { exportType: true });
      expect(untypedPlaces(ast)).toEqual([
        "components.schemas.PlantPatch (a branch of a union)",
        "operations.patchX.responses.200.content.application/json.free",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("int64 in the generated types", () => {
  it("when an int64 may be null (3.1's type list), then it is typed bigint | null", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plantstore-int64-"));
    try {
      const path = join(dir, "int64.yaml");
      const schema = (type: unknown) => ({ type, format: "int64" });
      writeFileSync(
        path,
        JSON.stringify({
          openapi: "3.1.0",
          info: { title: "t", version: "1" },
          paths: {},
          components: {
            schemas: {
              Ids: {
                type: "object",
                properties: { plain: schema("integer"), nullable: schema(["integer", "null"]) },
              },
            },
          },
        }),
      );
      const text = astToString(
        await openapiTS(new URL(`file://${path}`), { exportType: true, transform: int64AsBigint }),
      );
      expect(text).toContain("plain?: bigint;");
      expect(text).toContain("nullable?: bigint | null;");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
