// `npm run pack:client`: the typed client as a package of its own, `plantstore-client`, packed
// to dist/plantstore-client-VERSION.tgz (or into the folder given with --out), whose path it
// prints. A project installs that file (`npm install ./plantstore-client-1.0.0.tgz`); putting
// it on a registry is the maintainers' step (docs/publishing.md). The package is the client
// compiled from src/client/ and generated/ (JavaScript and declarations), a package.json with
// no scripts, and the dependencies its code and its declarations need: lossless-json, and
// @types/node for the declarations' fetch, Response and Headers.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parse } from "yaml";

process.chdir(fileURLToPath(new URL("..", import.meta.url)));
const { values } = parseArgs({ options: { out: { type: "string", default: "dist" } } });
const out = resolve(values.out);
const staging = join(out, "plantstore-client");
rmSync(staging, { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", "tsconfig.client.json", "--outDir", staging], {
  stdio: "inherit",
});

const root = JSON.parse(readFileSync("package.json", "utf8"));
const api = parse(readFileSync("openapi/plants.yaml", "utf8")).info;
const entry = (name) => ({
  types: `./src/client/${name}.d.ts`,
  default: `./src/client/${name}.js`,
});
const manifest = {
  name: "plantstore-client",
  version: root.version,
  description: `The typed client of the ${api.title} API ${api.version}: a method per operation, int64 ids as exact bigints, and verifyWebhook for receivers`,
  license: root.license,
  type: "module",
  engines: root.engines,
  sideEffects: false,
  types: entry("index").types,
  exports: { ".": entry("index"), "./webhooks": entry("webhooks") },
  dependencies: {
    "lossless-json": root.dependencies["lossless-json"],
    "@types/node": ">=20",
  },
};
writeFileSync(join(staging, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(
  join(staging, "README.md"),
  `# plantstore-client

The typed client of the ${api.title} API ${api.version}, built from its OpenAPI document.

\`\`\`ts
import { createClient } from "plantstore-client";
import { verifyWebhook } from "plantstore-client/webhooks"; // Node only: node:crypto

const plants = createClient({ baseUrl: "http://127.0.0.1:8080", token: process.env.TOKEN });
await plants.createPlant({ body: { id: 9007199254740993n, name: "Monstera" } });
\`\`\`

Every operation is a method named by its operationId; every int64 is a \`bigint\`, sent and
read exactly. The plantstore repository's docs/publishing.md ("Calling the API") and
docs/webhooks.md ("Receiving webhooks") describe both entries.
`,
);

const [packed] = JSON.parse(
  execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", out], {
    cwd: staging,
    encoding: "utf8",
  }),
);
process.stdout.write(`${join(out, packed.filename)}\n`);
