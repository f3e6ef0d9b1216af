// Compiles openapi/plants.yaml for the server, into the module src/openapi/compiled-api.ts loads:
// the document checked and parsed, each operation's request validators (openapi-backend's, as ajv
// standalone code) and the serializer of each JSON answer (fast-json-stringify's standalone
// code, as Fastify would compile it from the route's response schema). Run by
// scripts/build-api.mjs, bundled, as `node compile-api.mjs OUT`.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { _, Ajv, type ValidateFunction } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import fastJsonStringify from "fast-json-stringify";
import { type Document, OpenAPIRouter } from "openapi-backend";
import { publishedValues, readSettings } from "../src/config/config.ts";
import { publishedDocument } from "../src/docs/published-document.ts";
import { dereference } from "../src/openapi/backend.ts";
import { documentDigest } from "../src/openapi/compiled-api.ts";
import { apiData } from "../src/openapi/data.ts";
import { dereferencedToJson } from "../src/openapi/dereferenced-json.ts";
import { documentPath, parseYaml } from "../src/openapi/document.ts";
import { checkDocument } from "../src/openapi/document-check.ts";
import { responseSchemas } from "../src/openapi/response-schemas.ts";
import { compileValidators } from "../src/openapi/validators.ts";
import { GENERATED_MIGRATIONS } from "../src/store/migrations/index.ts";
import { checkMigrations, SNAPSHOT_FILE } from "../src/store/migrations/snapshot.ts";

async function compile(bytes: Buffer): Promise<string> {
  const document = parseYaml(bytes.toString("utf8")) as Document;
  await checkDocument(document);
  // Every {{NAME}} the descriptions use is a published setting: rendered once, with defaults.
  await publishedDocument({
    metricsOpen: false,
    values: publishedValues(readSettings({}, process.cwd())),
  }).at("http://127.0.0.1:8080");
  const dereferenced = await dereference(document);
  const data = apiData(dereferenced);
  checkMigrations(data.tables, readFileSync(SNAPSHOT_FILE, "utf8"), GENERATED_MIGRATIONS);
  const router = new OpenAPIRouter({ definition: dereferenced, ignoreTrailingSlashes: false });
  const validators = validatorsCode(dereferenced, router);
  const serializers = serializersCode(router);
  return `// Compiled from openapi/plants.yaml by scripts/compile-api.ts (npm run build:server). Do not edit.
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);

export const documentSha256 = ${JSON.stringify(documentDigest(bytes))};

export const document = ${JSON.stringify(dereferencedToJson(dereferenced))};

export const data = ${JSON.stringify(data)};

export function validators(formats) {
  const v = [];
${validators.code.map((code, i) => `  v[${i}] = ${commonJs(code)};`).join("\n")}
  return {
${validators.table.map((row) => `    ${row},`).join("\n")}
  };
}

export function serializers() {
  const s = [];
${serializers.code.map((code, i) => `  s[${i}] = ${commonJs(code)};`).join("\n")}
  return {
${serializers.table.map((row) => `    ${row},`).join("\n")}
  };
}
`;
}

/** Code that evaluates to the value of a CommonJS module's code (what both compilers write). */
const commonJs = (code: string): string =>
  `((module) => {\n${code}\nreturn module.exports;\n})({ exports: {} })`;

/** Distinct pieces of code, each written once, and the rows of a table that names them. */
interface Compiled {
  code: string[];
  table: string[];
}

/** Adds `code` to `codes` unless it is there already; its index. */
function indexIn(codes: string[], seen: Map<string, number>, code: string): number {
  let index = seen.get(code);
  if (index === undefined) {
    index = codes.push(code) - 1;
    seen.set(code, index);
  }
  return index;
}

/**
 * Each validator as ajv standalone code: its formats taken by name from `formats` (the module
 * is given validatorFormats()), its runtime helpers required from ajv.
 */
function validatorsCode(document: Document, router: OpenAPIRouter): Compiled {
  const sourceOptions = { code: { source: true, formats: _`formats` } };
  const sourceAjv = new Ajv(sourceOptions);
  const code: string[] = [];
  const seen = new Map<string, number>();
  const list = (validators: readonly ValidateFunction[]): string =>
    `[${validators.map((v) => `v[${indexIn(code, seen, standalone.default(sourceAjv, v))}]`).join(", ")}]`;
  const compiled = compileValidators(document, router, sourceOptions);
  const table = Object.entries(compiled).map(([operationId, { none, byType }]) => {
    const types = Object.entries(byType).map(([type, v]) => `${JSON.stringify(type)}: ${list(v)}`);
    return `${JSON.stringify(operationId)}: { none: ${list(none)}, byType: { ${types.join(", ")} } }`;
  });
  return { code, table };
}

/** Each JSON answer's serializer; most answers share a schema (every error is an Error). */
function serializersCode(router: OpenAPIRouter): Compiled {
  const code: string[] = [];
  const seen = new Map<string, number>();
  const table = router.getOperations().map((operation) => {
    const statuses = Object.entries(responseSchemas(operation)).map(([status, schema]) => {
      // The options Fastify's default serializer compiler gives fast-json-stringify.
      const serializer = fastJsonStringify(schema, { schema: {}, mode: "standalone" });
      return `${JSON.stringify(status)}: s[${indexIn(code, seen, serializer as unknown as string)}]`;
    });
    return `${JSON.stringify(operation.operationId)}: { ${statuses.join(", ")} }`;
  });
  return { code, table };
}

const out = process.argv[2];
if (out === undefined) throw new Error("usage: compile-api.mjs OUT");
try {
  const text = await compile(readFileSync(documentPath));
  // Written beside, then moved: a server starting meanwhile reads the old build or the new.
  writeFileSync(`${out}.${process.pid}`, text);
  renameSync(`${out}.${process.pid}`, out);
} catch (error) {
  // A document that cannot be compiled is the user's to fix: one line, no stack.
  process.stderr.write(
    `plantstore: cannot compile openapi/plants.yaml: ${(error as Error).message}\n`,
  );
  process.exit(1);
}
