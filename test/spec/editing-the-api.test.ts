// Changing the API as a newcomer would, on a copy of the repository: edit the YAML, run
// `npm run generate`, and a new operation is routed, typed and answered 501 by a scaffolded
// handler, with its contract tests listed as todos, nothing already written overwritten; a new
// table, or a new member with a filter, is stored, migrated (a database made before keeps its
// rows; the member's trial on SQLite and, with TEST_DATABASE_URL, PostgreSQL) and served with no
// file written by hand. Each case works on a copy of its own. And a document generate cannot type is
// refused, naming where.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { int64AsBigint, untypedPlaces } from "../../scripts/generate.ts";
import { createTestDatabase, TEST_DATABASE_URL } from "../helpers/postgres.ts";
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
  // The API compiled for the document as it is (the global setup's build; `npm ci` makes it in
  // a checkout), so a copy serves before its first generate.
  "dist/api",
];

function run(cwd: string, command: string, args: string[]) {
  const done = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000 });
  return { code: done.status, output: `${done.stdout}${done.stderr}` };
}

/** The copy's own SQLite file (the same one every time it is probed). */
const sqliteIn = (copy: string): string => `sqlite:${join(copy, "data.db")}`;

/** The engines a trial runs on: each gives a database of the trial's own, and drops it after. */
const engines: {
  name: string;
  database(copy: string): Promise<{ url: string; drop(): Promise<void> }>;
}[] = [
  {
    name: "SQLite",
    database: async (copy) => ({ url: sqliteIn(copy), drop: async () => undefined }),
  },
  ...(TEST_DATABASE_URL === undefined
    ? []
    : [{ name: "PostgreSQL", database: () => createTestDatabase() }]),
];

describe("npm run generate, for an operation added to the YAML", () => {
  const copies: string[] = [];
  afterAll(() => {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  });
  /** A copy of the repository of its own, so that no case depends on what another did. */
  const freshCopy = (): string => {
    const copy = mkdtempSync(join(tmpdir(), "plantstore-scaffold-"));
    copies.push(copy);
    for (const entry of COPIED)
      cpSync(join(REPO_ROOT, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules"), join(copy, "node_modules"));
    return copy;
  };

  it("when GET /plants/count is added and generate runs, then it has a handler answering 501, its line in the index and its todo tests, the whole compiles, and a second run overwrites nothing", async () => {
    const copy = freshCopy();
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
        'import { documentData } from "./src/openapi/backend.ts";',
        `const store = await openStore({ engine: "sqlite", path: ${JSON.stringify(join(copy, "probe.db"))} }, { startupTimeoutMs: 0, data: await documentData() });`,
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
    // Two generate runs, tsc, biome and a probe: minutes on a loaded machine.
  }, 300_000);

  it("when a table with a reference to plants is declared (schema, create, get, list, delete) and generate runs, then its migration is written, no handler is scaffolded, and the app serves it from the YAML alone", async () => {
    const copy = freshCopy();
    const before = sources(copy);
    const yamlPath = join(copy, "openapi/plants.yaml");
    const document = parseDocument(readFileSync(yamlPath, "utf8"));
    const note = { $ref: "#/components/schemas/Note" };
    const answer = (description: string, schema: object) => ({
      description,
      content: { "application/json": { schema } },
    });
    const error = answer("Refused.", { $ref: "#/components/schemas/Error" });
    document.setIn(["components", "schemas", "Note"], {
      type: "object",
      "x-table": { name: "notes", key: "id", noun: "note" },
      required: ["id", "plantId", "text"],
      properties: {
        id: { type: "integer", format: "int64" },
        plantId: { type: "integer", format: "int64", "x-references": "plants", "x-indexed": true },
        text: { type: "string", maxLength: 500 },
      },
    });
    const id = {
      name: "id",
      in: "path",
      required: true,
      schema: { type: "integer", format: "int64" },
    };
    document.setIn(["paths", "/notes"], {
      post: {
        operationId: "createNote",
        "x-table": "notes",
        "x-action": "create",
        requestBody: { required: true, content: { "application/json": { schema: note } } },
        responses: { "200": answer("Stored.", note), "409": error, "422": error },
      },
      get: {
        operationId: "listNotes",
        "x-table": "notes",
        "x-action": "list",
        parameters: [
          {
            name: "limit",
            in: "query",
            schema: { type: "integer", format: "int32", minimum: 1, maximum: 100, default: 100 },
          },
          { name: "after", in: "query", schema: { type: "integer", format: "int64" } },
          { name: "plantId", in: "query", schema: { type: "integer", format: "int64" } },
        ],
        responses: { "200": answer("A page.", { type: "array", items: note }) },
      },
    });
    document.setIn(["paths", "/notes/{id}"], {
      parameters: [id],
      get: {
        operationId: "getNote",
        "x-table": "notes",
        "x-action": "get",
        responses: { "200": answer("A note.", note), "404": error },
      },
      delete: {
        operationId: "deleteNote",
        "x-table": "notes",
        "x-action": "delete",
        responses: { "204": { description: "Deleted." }, "404": error },
      },
    });
    // A plant a note names cannot be deleted: its delete documents that 409.
    document.setIn(["paths", "/plants/{id}", "delete", "responses", "409"], error);
    writeFileSync(yamlPath, document.toString());

    const generated = run(copy, "npx", ["tsx", "scripts/generate.ts"]);
    expect(generated.code, generated.output).toBe(0);
    expect(scaffoldedFiles(generated.output)).toEqual([]);
    const migration = readFileSync(join(copy, "src/store/migrations/0001-notes.ts"), "utf8");
    expect(migration).toContain('CREATE TABLE "notes"');
    expect(readFileSync(join(copy, "src/store/migrations/index.ts"), "utf8")).toContain(
      'import { migration as m1 } from "./0001-notes.ts";',
    );
    expect(handWritten(copy, before)).toEqual([]);

    const probed = probe(copy, sqliteIn(copy), [
      'await call("POST", "/plants", { id: 1, name: "Fern" });',
      'await call("POST", "/notes", { id: 10, plantId: 1, text: "water weekly" });',
      'await call("GET", "/notes/10");',
      'await call("POST", "/notes", { id: 11, plantId: 999, text: "lost" });',
      'await call("GET", "/notes?plantId=1");',
      'await call("DELETE", "/plants/1");',
    ]);
    expect(probed.answers).toEqual([
      { status: 200, body: { name: "Fern" } },
      { status: 200, body: { id: 10, plantId: 1, text: "water weekly" } },
      { status: 200, body: { id: 10, plantId: 1, text: "water weekly" } },
      { status: 422, body: { error: 422, message: "`plantId` names no stored plants row (999)" } },
      { status: 200, body: [{ id: 10, plantId: 1, text: "water weekly" }] },
      { status: 409, body: expect.objectContaining({ error: 409 }) },
    ]);
    expect(probed.findings).toEqual([]);
  }, 180_000);

  it.each(engines)(
    "when an optional member with a filter is added to plants and generate runs, then a database made before on $name keeps its plants, and the member is stored, read, patched and filtered on",
    async ({ database }) => {
      const copy = freshCopy();
      const { url, drop } = await database(copy);
      try {
        // A database the copy made before the edit, with a plant in it.
        expect(
          probe(copy, url, ['await call("POST", "/plants", { id: 5, name: "Before" });']).answers,
        ).toEqual([{ status: 200, body: { name: "Before" } }]);
        const before = sources(copy);
        const yamlPath = join(copy, "openapi/plants.yaml");
        const document = parseDocument(readFileSync(yamlPath, "utf8"));
        const species = { type: "string", maxLength: 100 };
        document.setIn(["components", "schemas", "Plant", "properties", "species"], {
          ...species,
          "x-indexed": true,
        });
        document.setIn(["components", "schemas", "PlantPatch", "properties", "species"], species);
        document.addIn(["paths", "/plants", "get", "parameters"], {
          name: "species",
          in: "query",
          schema: species,
        });
        writeFileSync(yamlPath, document.toString());

        const generated = run(copy, "npx", ["tsx", "scripts/generate.ts"]);
        expect(generated.code, generated.output).toBe(0);
        const migrations = join(copy, "src/store/migrations");
        const written = readdirSync(migrations).filter((file) => /^\d{4}-/.test(file));
        expect(written).toEqual(["0001-plants-species.ts"]);
        expect(readFileSync(join(migrations, "0001-plants-species.ts"), "utf8")).toContain(
          'CREATE INDEX CONCURRENTLY IF NOT EXISTS "plants_species"',
        );
        expect(handWritten(copy, before)).toEqual([]);

        const probed = probe(copy, url, [
          'await call("GET", "/plants/5");',
          'await call("POST", "/plants", { id: 6, name: "Monstera", species: "M. deliciosa" });',
          'await call("PATCH", "/plants/5", { species: "Ficus lyrata" });',
          'await call("GET", "/plants?species=M.%20deliciosa");',
        ]);
        expect(probed.answers).toEqual([
          { status: 200, body: { id: 5, name: "Before" } },
          { status: 200, body: { name: "Monstera", species: "M. deliciosa" } },
          { status: 200, body: { id: 5, name: "Before", species: "Ficus lyrata" } },
          { status: 200, body: [{ id: 6, name: "Monstera", species: "M. deliciosa" }] },
        ]);
        expect(probed.findings).toEqual([]);
      } finally {
        await drop();
      }
    },
    180_000,
  );
});

/** The copy's src/ files and their text, to see later what changed. */
function sources(copy: string): Map<string, string> {
  const files = readdirSync(join(copy, "src"), { recursive: true }) as string[];
  return new Map(
    files
      .filter((f) => f.endsWith(".ts"))
      .map((f) => [f, readFileSync(join(copy, "src", f), "utf8")]),
  );
}

/**
 * Files of the copy's src/ new or changed since `before`, but for the migrations generate
 * writes: what a user would have had to write by hand.
 */
function handWritten(copy: string, before: ReadonlyMap<string, string>): string[] {
  return [...sources(copy)]
    .filter(([file, text]) => !file.startsWith("store/migrations/") && before.get(file) !== text)
    .map(([file]) => file);
}

/**
 * The copy's app on the database at `databaseUrl`, answering `calls` in order,
 * then the document's check of stored data (src/conformance/stored-data.ts) against it.
 */
function probe(
  copy: string,
  databaseUrl: string,
  calls: readonly string[],
): { answers: unknown[]; findings: string[] } {
  writeFileSync(
    join(copy, "probe.ts"),
    [
      'import { buildApp } from "./src/app.ts";',
      'import { createAuthenticator } from "./src/auth/authenticator.ts";',
      'import { defaultOpsConfig, loadConfig } from "./src/config/config.ts";',
      'import { checkStoredData } from "./src/conformance/stored-data.ts";',
      'import { documentData } from "./src/openapi/backend.ts";',
      'import { loadDocument } from "./src/openapi/document.ts";',
      'import { openStore } from "./src/store/open.ts";',
      "const data = await documentData();",
      `const { database } = loadConfig({ DATABASE_URL: ${JSON.stringify(databaseUrl)} });`,
      "const store = await openStore(database, { startupTimeoutMs: 0, data });",
      "const app = await buildApp({",
      "  store,",
      // No refusal for a lagging event loop, as the other suites' apps (a loaded machine).
      "  ops: { ...defaultOpsConfig(), maxEventLoopDelayMs: 0 },",
      '  authenticator: (log) => createAuthenticator({ staticTokens: ["probe-token-0123456789"], tokens: store.tokens, jwt: undefined, log }),',
      '  logLevel: "silent",',
      "});",
      "const inject = (method: string, url: string, body?: string) =>",
      '  app.inject({ method: method as "GET", url, headers: { authorization: "Bearer probe-token-0123456789", "content-type": "application/json" }, ...(body === undefined ? {} : { payload: body }) });',
      "const answers: unknown[] = [];",
      "const call = async (method: string, url: string, body?: unknown) => {",
      "  const answer = await inject(method, url, body === undefined ? undefined : JSON.stringify(body));",
      '  answers.push({ status: answer.statusCode, ...(answer.body === "" ? {} : { body: answer.json() }) });',
      "};",
      ...calls,
      "const findings = await checkStoredData(loadDocument(), data, async (method, url, body) => {",
      "  const answer = await inject(method, url, body);",
      "  return { status: answer.statusCode, text: answer.body, link: answer.headers.link as string | undefined };",
      "}, 1);",
      "console.log(JSON.stringify({ answers, findings }));",
      "await app.close();",
      "await store.close();",
    ].join("\n"),
  );
  const probed = run(copy, "npx", ["tsx", "probe.ts"]);
  expect(probed.code, probed.output).toBe(0);
  return JSON.parse(probed.output.trim().split("\n").at(-1) ?? "");
}

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
