// Compiles openapi/plants.yaml into dist/api/compiled.mjs, the module the server loads
// (src/openapi/compiled-api.ts): scripts/compile-api.ts, bundled with esbuild and run with node,
// so this needs no TypeScript loader. About two seconds, and only when the YAML, the compiler or
// the installed packages changed. Run by `npm run build:server` (so by `npm start` and `npm ci`)
// and by `npm run generate`; `node scripts/build-api.mjs` alone does just this.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

export async function buildApi() {
  const at = (path) => `${root}${path}`;
  const dir = at("dist/api");
  const compiler = await build({
    entryPoints: [at("scripts/compile-api.ts")],
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    logLevel: "warning",
  });
  const code = compiler.outputFiles[0].text;
  const key = createHash("sha256")
    .update(code)
    .update(readFileSync(at("openapi/plants.yaml")))
    // The migrations' snapshot, which the document's tables are checked against.
    .update(readFileSync(at("src/store/migrations/tables.json")))
    .update(existsSync(at("package-lock.json")) ? readFileSync(at("package-lock.json")) : "")
    .digest("hex");
  const keyFile = `${dir}/compiled.key`;
  if (existsSync(`${dir}/compiled.mjs`) && existsSync(keyFile)) {
    if (readFileSync(keyFile, "utf8") === key) return;
  }
  mkdirSync(dir, { recursive: true });
  // Beside its output, two folders below the root like src/'s files, so that its paths and
  // imports resolve as they do from src/.
  const script = `${dir}/compile-api-${process.pid}.mjs`;
  writeFileSync(script, code);
  let compiled = true;
  try {
    execFileSync(process.execPath, [script, `${dir}/compiled.mjs`], {
      stdio: "inherit",
      cwd: root,
    });
  } catch {
    compiled = false;
  }
  rmSync(script, { force: true });
  // The compiler has said why, in one line.
  if (!compiled) process.exit(1);
  writeFileSync(keyFile, key);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildApi();
