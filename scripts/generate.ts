// Writes generated/plants.ts from openapi/plants.yaml with openapi-typescript.
// `--check` writes nothing and exits 1 when the committed file is stale.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";

const specUrl = new URL("../openapi/plants.yaml", import.meta.url);
export const generatedPath = fileURLToPath(new URL("../generated/plants.ts", import.meta.url));

const header = "// Generated from openapi/plants.yaml by `npm run generate`. Do not edit.\n\n";

/**
 * Every `type: integer, format: int64` becomes `bigint`, in bodies and parameters alike: the
 * server reads and writes them exactly (src/openapi/), so a handler never holds a rounded id.
 */
const int64AsBigint = (schema: { type?: unknown; format?: unknown }): ts.TypeNode | undefined =>
  schema.type === "integer" && schema.format === "int64"
    ? ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword)
    : undefined;

export async function renderTypes(): Promise<string> {
  const ast = await openapiTS(specUrl, { exportType: true, transform: int64AsBigint });
  return header + astToString(ast);
}

async function main(): Promise<void> {
  const rendered = await renderTypes();
  if (process.argv.includes("--check")) {
    const current = await readFile(generatedPath, "utf8").catch(() => "");
    if (current !== rendered) {
      console.error("generated/plants.ts is stale: run `npm run generate`");
      process.exit(1);
    }
    return;
  }
  await writeFile(generatedPath, rendered);
  console.log(`wrote ${generatedPath}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
