// Writes generated/plants.ts from openapi/plants.yaml with openapi-typescript, and docs/operating.md's
// table of settings from src/config/settings.ts, scaffolds a handler and a contract test for each
// operation that has no handler yet, and the store of a resource new to the document
// (scripts/scaffold.ts), and compiles the YAML for the server
// (scripts/build-api.mjs). A document with a schema that
// openapi-typescript can only type as `unknown` or `any` is refused, naming where. `--check`
// writes nothing and exits 1 when an output is stale.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { settingsMarkdown } from "../src/config/help.ts";
import { dereference } from "../src/openapi/backend.ts";
import { DataDeclarationError, membersOf } from "../src/openapi/data.ts";
import { DocumentRefused, HTTP_METHODS, parseYaml } from "../src/openapi/document.ts";
import { changelogPath, renderApiChangelog } from "../src/spec-diff/api-changelog.ts";
import { DestructiveChangeError } from "../src/store/migrations/diff.ts";
import { EVERY_ITEM, int64Locations, type LocationStep } from "../src/text/int64-locations.ts";
import { isJsonMediaType } from "../src/text/media-type.ts";
import { buildApi } from "./build-api.mjs";
import { BY_HAND_NAME, migrationOutputs } from "./migration.ts";
import { formatted, scaffold } from "./scaffold.ts";

const specUrl = new URL("../openapi/plants.yaml", import.meta.url);
export const generatedPath = fileURLToPath(new URL("../generated/plants.ts", import.meta.url));

const header = "// Generated from openapi/plants.yaml by `npm run generate`. Do not edit.\n\n";

/**
 * Every `type: integer, format: int64` becomes `bigint`, in bodies and parameters alike: the
 * server reads and writes them exactly (src/openapi/), so a handler never holds a rounded id.
 */
export const int64AsBigint = (schema: {
  type?: unknown;
  format?: unknown;
}): ts.TypeNode | undefined => {
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.format !== "int64" || !types.includes("integer")) return undefined;
  const bigint = ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword);
  // 3.1's nullable: [integer, "null"].
  return types.includes("null")
    ? ts.factory.createUnionTypeNode([
        bigint,
        ts.factory.createLiteralTypeNode(ts.factory.createNull()),
      ])
    : bigint;
};

/**
 * openapi/plants.yaml read as every command reads it (parseYaml: aliases and depth bounded, no
 * `$ref` outside the document), so openapi-typescript is handed an object and never parses the
 * file or follows a reference to another file or a URL itself.
 */
async function readSpec(spec: URL = specUrl): Promise<Document> {
  return parseYaml(await readFile(spec, "utf8")) as Document;
}

/** generated/plants.ts as `spec` (openapi/plants.yaml unless a test names another) makes it. */
export async function renderTypes(spec: URL = specUrl): Promise<string> {
  const document = await readSpec(spec);
  const ast = await openapiTS(structuredClone(document) as Parameters<typeof openapiTS>[0], {
    exportType: true,
    transform: int64AsBigint,
  });
  const untyped = untypedPlaces(ast);
  if (untyped.length > 0) throw new UntypedSchemaError(untyped);
  return (
    header +
    astToString(ast) +
    renderDefaulted(document) +
    renderServed(document) +
    renderTables(document) +
    renderOperationTable(document) +
    renderEvents(document)
  );
}

/** The document has schemas a handler could not be typed from. */
export class UntypedSchemaError extends Error {
  constructor(readonly places: readonly string[]) {
    super(
      [
        "openapi/plants.yaml has schemas that would be typed as unknown, so their handlers and clients would be untyped:",
        ...places.map((place) => `  ${place}`),
        "Hint: give each such schema a `type`. A schema of anyOf/oneOf is typed as the union of its branches, so a branch with only `required` (anyOf: [{required: [a]}, {required: [b]}]) has no type of its own: repeat in each branch the properties it requires (type: object, properties, required), or say it with minProperties.",
      ].join("\n"),
    );
  }
}

/**
 * Where the generated types hold `unknown` or `any`, as `components.schemas.X` or
 * `operations.opId.requestBody…`: anywhere but as the value of an index signature (headers and
 * `additionalProperties`, which are open by design).
 */
export function untypedPlaces(nodes: readonly ts.Node[]): string[] {
  const places: string[] = [];
  const visit = (node: ts.Node, parent: ts.Node | undefined, path: readonly string[]): void => {
    const untyped =
      node.kind === ts.SyntaxKind.UnknownKeyword || node.kind === ts.SyntaxKind.AnyKeyword;
    if (untyped && !(parent !== undefined && ts.isIndexSignatureDeclaration(parent))) {
      const what =
        parent !== undefined && ts.isUnionTypeNode(parent) ? " (a branch of a union)" : "";
      places.push(`${path.join(".")}${what}`);
    }
    const named =
      ts.isPropertySignature(node) ||
      ts.isTypeAliasDeclaration(node) ||
      ts.isInterfaceDeclaration(node)
        ? node.name
        : undefined;
    const here =
      named !== undefined &&
      (ts.isIdentifier(named) || ts.isStringLiteral(named) || ts.isNumericLiteral(named))
        ? [...path, named.text]
        : path;
    ts.forEachChild(node, (child) => visit(child, node, here));
  };
  for (const node of nodes) visit(node, undefined, []);
  return [...new Set(places)];
}

/** A JSON-safe int64 location step: "[*]" any array item; `{ otherThan }` any other member. */
const stepText = (step: LocationStep) => (step === EVERY_ITEM ? "[*]" : step);

/** The document with every local $ref replaced by what it names (shared, so cycles stay finite). */
function dereferenced(document: unknown): unknown {
  const resolved = new Map<string, unknown>();
  const at = (pointer: string): unknown =>
    pointer
      .slice(2)
      .split("/")
      .reduce<unknown>(
        (node, key) => (node as Record<string, unknown> | undefined)?.[key],
        document,
      );
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== "object" || node === null) return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#/")) {
      if (!resolved.has(ref)) {
        const target: Record<string, unknown> = {};
        resolved.set(ref, target);
        Object.assign(target, visit(at(ref)));
      }
      return resolved.get(ref);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value)]));
  };
  return visit(document);
}

interface OperationShape {
  operationId?: string;
  parameters?: { name: string; in: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/**
 * `operationTable`: per operation, its method and path, and where int64s stand in it (parameter
 * names, JSON paths in the request body and in each answer's body); `webhookTable` the same for
 * the webhooks the server sends. Clients (src/client/) read and write those exactly without any
 * code naming a field.
 */
function renderOperationTable(document: Document): string {
  const { operationTable, webhookTable } = operationTables(document);
  return [
    "",
    "/** Per operation: method, path, and where int64s stand (read and written exactly). */",
    `export const operationTable = ${JSON.stringify(operationTable, null, 4)} as const;`,
    "",
    "/** Per webhook the server sends: method, name, and where int64s stand in its body. */",
    `export const webhookTable = ${JSON.stringify(webhookTable, null, 4)} as const;`,
    "",
  ].join("\n");
}

/**
 * `webhookEvents` and `eventTable`: each event the document declares (a webhook with x-event),
 * by its type, with its body's type, its webhook, where int64s stand in the body, the members
 * it always has and, when its schema is closed, the only ones it may have, so that a receiver
 * (src/client/webhooks.ts) reads any event exactly and refuses one its schema does not allow.
 */
function renderEvents(document: Document): string {
  const events = declaredEvents(document);
  return [
    "",
    "/** Each event the document declares (x-event), by type: its body as a receiver reads it. */",
    "export interface webhookEvents {",
    ...events.map(
      ({ type, operationId }) =>
        `    ${JSON.stringify(type)}: operations[${JSON.stringify(operationId)}]["requestBody"]["content"]["application/json"];`,
    ),
    "}",
    "",
    "/**",
    " * Per event type: its webhook, where int64s stand in its body, the members it always has, and",
    " * the only members it may have when its schema is closed (null when it is open).",
    " */",
    `export const eventTable = ${JSON.stringify(eventTableOf(document), null, 4)} as const;`,
    "",
  ].join("\n");
}

/** The eventTable generated/plants.ts holds, from a parsed document. */
export function eventTableOf(document: unknown): Record<string, unknown> {
  return Object.fromEntries(
    declaredEvents(document as Document).map(({ type, operationId, body }) => [
      type,
      {
        operationId,
        int64InBody: int64Locations(body).map((l) => l.map(stepText)),
        required: [...membersOf(body).required],
        members: closedMembers(body),
      },
    ]),
  );
}

/** The webhooks with x-event, in the document's order, with their JSON body's schema. */
function declaredEvents(
  document: Document,
): { type: string; operationId: string; body: Record<string, unknown> }[] {
  const resolved = dereferenced(document) as { webhooks?: Document["paths"] };
  const events: { type: string; operationId: string; body: Record<string, unknown> }[] = [];
  for (const item of Object.values(resolved.webhooks ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as
        | (OperationShape & { "x-event"?: { type?: string } })
        | undefined;
      const type = operation?.["x-event"]?.type;
      if (operation?.operationId === undefined || type === undefined) continue;
      const content = operation.requestBody?.content ?? {};
      const body = content[Object.keys(content).find(isJsonMediaType) ?? ""]?.schema;
      events.push({
        type,
        operationId: operation.operationId,
        body: (body ?? {}) as Record<string, unknown>,
      });
    }
  }
  return events;
}

/**
 * The members a closed schema allows, as JSON Schema reads it: `additionalProperties: false`
 * allows its own properties alone, `unevaluatedProperties: false` those of its allOf parts too.
 * Null when it is open, or names members by pattern (which a list cannot say).
 */
function closedMembers(schema: Record<string, unknown>): string[] | null {
  if (schema["patternProperties"] !== undefined) return null;
  if (schema["unevaluatedProperties"] === false) {
    return membersOf(schema).members.map(([name]) => name);
  }
  if (schema["additionalProperties"] === false) {
    const own = schema["properties"];
    return typeof own === "object" && own !== null ? Object.keys(own) : [];
  }
  return null;
}

/** The two tables generated/plants.ts holds, from a parsed document. */
export function operationTables(document: unknown): {
  operationTable: Record<string, unknown>;
  webhookTable: Record<string, unknown>;
} {
  const resolved = dereferenced(document) as Document & { webhooks?: Document["paths"] };
  return {
    operationTable: operationEntries(resolved.paths),
    webhookTable: operationEntries(resolved.webhooks),
  };
}

/** The table's entries for the operations of `items` (the document's paths or its webhooks). */
function operationEntries(items: Document["paths"]): Record<string, unknown> {
  const isInt64 = (schema: unknown) =>
    int64Locations(schema).some((location) => location.length === 0);
  const locations = (schema: unknown) => int64Locations(schema).map((l) => l.map(stepText));
  const table: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(items ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OperationShape | undefined;
      if (operation?.operationId === undefined) continue;
      const parameters = [
        ...(item.parameters ?? []),
        ...(operation.parameters ?? []),
      ] as NonNullable<OperationShape["parameters"]>;
      const content = operation.requestBody?.content ?? {};
      const bodyType = Object.keys(content).find(isJsonMediaType);
      const body = bodyType === undefined ? undefined : content[bodyType]?.schema;
      table[operation.operationId] = {
        method: method.toUpperCase(),
        path,
        ...(bodyType === undefined ? {} : { bodyType }),
        int64Parameters: parameters.filter((p) => isInt64(p.schema)).map((p) => p.name),
        int64InBody: body === undefined ? [] : locations(body),
        int64InAnswers: Object.fromEntries(
          Object.entries(operation.responses ?? {}).map(([status, response]) => [
            status,
            locations(response.content?.["application/json"]?.schema),
          ]),
        ),
      };
    }
  }
  return table;
}

interface ParameterObject {
  $ref?: string;
  name?: string;
  in?: string;
  required?: boolean;
  schema?: { default?: unknown };
}
type Document = {
  paths?: Record<string, Record<string, unknown> & { parameters?: ParameterObject[] }>;
  components?: {
    parameters?: Record<string, ParameterObject>;
    schemas?: Record<string, { "x-table"?: { name?: string; key?: string } }>;
  };
};

/**
 * `tables`: each table the document declares (a schema with `x-table`), its row as the API
 * types it and its key, so that the store's repositories are typed from the document.
 */
function renderTables(document: Document): string {
  const lines = Object.entries(document.components?.schemas ?? {}).flatMap(([schema, body]) => {
    const table = body["x-table"];
    if (table?.name === undefined || table.key === undefined) return [];
    return [
      `    ${table.name}: { row: components["schemas"][${JSON.stringify(schema)}]; key: ${JSON.stringify(table.key)} };`,
    ];
  });
  return [
    "/** The tables the document declares (x-table): each one's row, as the API types it, and key. */",
    "export interface tables {",
    ...lines,
    "}",
    "",
  ].join("\n");
}

/**
 * `parametersWithDefaults`: per operation, the optional parameters whose schema has a default.
 * The server fills those in (src/http/parameters.ts), so a handler's type has them as always
 * present (src/openapi/operation-types.ts); openapi-typescript alone would leave them optional.
 */
function renderDefaulted(document: Document): string {
  const resolve = (parameter: ParameterObject): ParameterObject =>
    parameter.$ref === undefined
      ? parameter
      : (document.components?.parameters?.[parameter.$ref.split("/").at(-1) ?? ""] ?? {});
  const lines: string[] = [];
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as
        | { operationId?: string; parameters?: ParameterObject[] }
        | undefined;
      if (operation?.operationId === undefined) continue;
      const byIn = new Map<string, string[]>();
      for (const parameter of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
        const { name, in: where, required, schema } = resolve(parameter);
        if (name === undefined || where === undefined || required === true) continue;
        if (schema?.default === undefined) continue;
        byIn.set(where, [...(byIn.get(where) ?? []), JSON.stringify(name)]);
      }
      if (byIn.size === 0) continue;
      const members = [...byIn].map(([where, names]) => `${where}: ${names.join(" | ")};`);
      lines.push(`    ${operation.operationId}: { ${members.join(" ")} };`);
    }
  }
  return [
    "/** Per operation, the optional parameters the server fills with their schema's default. */",
    "export interface parametersWithDefaults {",
    ...lines,
    "}",
    "",
  ].join("\n");
}

/**
 * `servedOperations`: the operationIds under `paths`, which the server routes and answers. The
 * document's `webhooks` have operations too, but the server sends those rather than serves them.
 */
function renderServed(document: Document): string {
  const ids = Object.values(document.paths ?? {}).flatMap((item) =>
    HTTP_METHODS.flatMap((method) => {
      const id = (item[method] as { operationId?: string } | undefined)?.operationId;
      return id === undefined ? [] : [JSON.stringify(id)];
    }),
  );
  const actions = Object.values(document.paths ?? {}).flatMap((item) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method] as { operationId?: string; "x-action"?: string } | undefined;
      return operation?.operationId === undefined || operation["x-action"] === undefined
        ? []
        : [JSON.stringify(operation.operationId)];
    }),
  );
  return [
    "/** The operations the server serves: those under paths, not the webhooks it sends. */",
    `export type servedOperations = ${ids.join(" | ")};`,
    "",
    "/** Those that are a plain action on a declared table (x-action): a generic handler serves them. */",
    `export type resourceOperations = ${actions.length === 0 ? "never" : actions.join(" | ")};`,
    "",
  ].join("\n");
}

/**
 * The migration the document's tables need (scripts/migration.ts); a declaration that would
 * lose data, or that the store cannot keep, ends the command with its sentence.
 */
async function migrationsOrExit(byHand: string | undefined) {
  const document = await dereference((await readSpec()) as never);
  try {
    return migrationOutputs(document, byHand);
  } catch (error) {
    if (!(error instanceof DestructiveChangeError || error instanceof DataDeclarationError)) {
      throw error;
    }
    console.error(`plantstore: ${error.message}`);
    process.exit(1);
  }
}

export const settingsDocPath = fileURLToPath(new URL("../docs/operating.md", import.meta.url));
const SETTINGS_START = "<!-- settings: written from src/config/settings.ts by npm run generate -->";
const SETTINGS_END = "<!-- end of settings -->";

/** docs/operating.md with its table of settings as src/config/settings.ts makes it. */
export function renderSettingsDoc(page: string): string {
  const start = page.indexOf(SETTINGS_START);
  const end = page.indexOf(SETTINGS_END);
  if (start === -1 || end < start) {
    throw new Error(`docs/operating.md has no ${SETTINGS_START} … ${SETTINGS_END} section`);
  }
  return `${page.slice(0, start)}${SETTINGS_START}\n${settingsMarkdown()}\n${page.slice(end)}`;
}

/** `--by-hand NAME`: the next migration is written for its author to complete. */
function byHandName(): string | undefined {
  const at = process.argv.indexOf("--by-hand");
  if (at === -1) return undefined;
  const name = process.argv[at + 1] ?? "";
  if (!BY_HAND_NAME.test(name)) {
    console.error(
      "plantstore: --by-hand takes the migration's name: lower case letters, digits and -, e.g. --by-hand drop-plants-species",
    );
    process.exit(2);
  }
  return name;
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const types = await renderTypes().catch((error: unknown) => {
    if (!(error instanceof UntypedSchemaError || error instanceof DocumentRefused)) throw error;
    console.error(error.message);
    process.exit(1);
  });
  const migrations = await migrationsOrExit(byHandName());
  const outputs = [
    { path: generatedPath, rendered: types },
    { path: settingsDocPath, rendered: renderSettingsDoc(await readFile(settingsDocPath, "utf8")) },
    { path: changelogPath, rendered: renderApiChangelog() },
    ...migrations,
  ];
  for (const { path, rendered } of outputs) {
    const current = await readFile(path, "utf8").catch(() => "");
    if (current === rendered) continue;
    if (check) {
      console.error(`${path} is stale: run \`npm run generate\``);
      process.exitCode = 1;
      continue;
    }
    await writeFile(path, rendered);
    console.log(`wrote ${path}`);
  }
  if (check) return;
  formatted(migrations.map(({ path }) => path).filter((path) => path.endsWith(".ts")));
  const { written } = scaffold((await readSpec()) as Parameters<typeof scaffold>[0]);
  for (const path of written) console.log(`scaffolded ${path}`);
  // The server's compiled validators and serializers (dist/api), so the app runs the new YAML.
  await buildApi();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
