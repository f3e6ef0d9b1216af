// `npm run bundle`: the document as a server configured by this environment would publish it
// (the limits in its descriptions, `servers` from PLANTSTORE_PUBLIC_URL), written to
// dist/openapi.json and dist/openapi.yaml: the copy to hand to an API portal.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { ConfigError, loadConfig } from "../src/config/config.ts";
import { DEFAULT_SERVER_URL } from "../src/docs/handlers.ts";
import { publishedDocument, serverUrl } from "../src/docs/published-document.ts";
import { DocumentRefused, documentPath, parseYaml } from "../src/openapi/document.ts";
import { apiChangelog } from "../src/spec-diff/api-changelog.ts";

try {
  // Read first as every command reads the document (aliases, nesting, $refs bounded).
  parseYaml(readFileSync(documentPath, "utf8"));
  const { ops, publicUrl } = loadConfig(process.env);
  const document = await publishedDocument({
    metricsOpen: ops.metricsToken === undefined,
    values: ops.published,
  }).at(serverUrl(publicUrl, null, DEFAULT_SERVER_URL));
  const out = new URL("../dist/", import.meta.url);
  mkdirSync(out, { recursive: true });
  writeFileSync(new URL("openapi.json", out), document.json);
  writeFileSync(new URL("openapi.yaml", out), document.yaml);
  writeFileSync(new URL("changelog.md", out), apiChangelog());
  process.stdout.write("wrote dist/openapi.json, dist/openapi.yaml and dist/changelog.md\n");
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof DocumentRefused)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
