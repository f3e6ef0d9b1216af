// `npm run bundle`: the document as a server configured by this environment would publish it
// (the limits in its descriptions, `servers` from PLANTSTORE_PUBLIC_URL), written to
// dist/openapi.json and dist/openapi.yaml: the copy to hand to an API portal.
import { mkdirSync, writeFileSync } from "node:fs";
import { ConfigError, loadConfig } from "../src/config.ts";
import { DEFAULT_SERVER_URL } from "../src/docs/handlers.ts";
import { publishedDocument, serverUrl } from "../src/docs/published-document.ts";

try {
  const { ops, publicUrl } = loadConfig(process.env);
  const document = await publishedDocument({
    metricsOpen: ops.metricsToken === undefined,
    values: ops.published,
  }).at(serverUrl(publicUrl, null, DEFAULT_SERVER_URL));
  const out = new URL("../dist/", import.meta.url);
  mkdirSync(out, { recursive: true });
  writeFileSync(new URL("openapi.json", out), document.json);
  writeFileSync(new URL("openapi.yaml", out), document.yaml);
  process.stdout.write("wrote dist/openapi.json and dist/openapi.yaml\n");
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
