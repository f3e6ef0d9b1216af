// The client as another project uses it: `npm run pack:client`'s tarball installed offline into
// an empty project with `npm install --ignore-scripts` (test/helpers/consumer-project.ts), a
// strict TypeScript file using `createClient` and `verifyWebhook` type-checked under a Node
// configuration (no DOM types: the package's declared @types/node supplies fetch and Headers)
// and run against a real server, and docs/publishing.md's example checked and run as written.
// `plantstore-client` runs in browsers too: nothing it loads imports a Node built-in; the
// receiver's verifyWebhook (node:crypto) is `plantstore-client/webhooks`.
import { readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN, uniqueId } from "../helpers/app.ts";
import { makeConsumerProject } from "../helpers/consumer-project.ts";
import { firstBlock, replacedOnce } from "../helpers/doc-blocks.ts";
import { runToExit } from "../helpers/run-process.ts";
import { useRunningServer } from "../helpers/running-server.ts";
import { REPO_ROOT } from "../helpers/server-process.ts";
import { sqliteEngine } from "../helpers/stores.ts";

// Registers a receiver of its own with the server, creates a plant, reads it back, and
// verifies the signed delivery of it: every call typed by the package.
const CONSUMER = `import { createServer } from "node:http";
import { createClient, PlantStoreError } from "plantstore-client";
import { type WebhookEvent, verifyWebhook } from "plantstore-client/webhooks";

const { URL: baseUrl, TOKEN: token, ID } = process.env;
if (baseUrl === undefined || token === undefined || ID === undefined) throw new Error("URL, TOKEN and ID");
const id: bigint = BigInt(ID);
const client = createClient({ baseUrl, token });

let secret = "";
let delivered: (event: WebhookEvent) => void = () => {};
const delivery = new Promise<WebhookEvent>((resolve) => {
  delivered = resolve;
});
const receiver = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  delivered(verifyWebhook(Buffer.concat(chunks), request.headers, secret));
  response.writeHead(204).end();
});
await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", done));
const address = receiver.address();
if (address === null || typeof address === "string") throw new Error("no port");

const endpoint = await client.createWebhookEndpoint({ body: { url: \`http://127.0.0.1:\${address.port}/\` } });
secret = endpoint.secret;
await client.createPlant({ body: { id, name: "from another project" } });
const plant = await client.getPlant({ path: { id } });
const message = await delivery;
if (message.event !== "newPlant") throw new Error(\`a \${message.event} event\`);
const event = message.body;
const refused = await client.getPlant({ path: { id: id + 1n } }).catch((error: unknown) => error);
receiver.close();
console.log(JSON.stringify({
  read: String(plant.id),
  readExact: plant.id === id,
  delivered: String(event.id),
  deliveredExact: event.id === id,
  name: event.name,
  missing: refused instanceof PlantStoreError ? refused.status : "not a PlantStoreError",
}));
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2023"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    outDir: "out",
  },
  files: ["consumer.ts", "publishing-example.ts"],
};

const PAGE_URL = "http://127.0.0.1:8080";

/** Every module a built entry loads, following its relative imports; and its bare ones. */
function importsOf(entry: string): { files: string[]; bare: string[] } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const [, target] of text.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s*"([^"]+)"/g)) {
      if (target === undefined) continue;
      if (target.startsWith(".")) visit(resolve(dirname(file), target));
      else bare.add(target);
    }
  };
  visit(entry);
  return { files: [...files], bare: [...bare] };
}

describe("plantstore-client installed from its tarball into an empty project", () => {
  let project = "";
  const running = useRunningServer(sqliteEngine, {
    PLANTSTORE_WEBHOOK_SEND: "true",
    PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "true",
  });
  beforeAll(async () => {
    project = await makeConsumerProject("plantstore-consumer-");
    writeFileSync(join(project, "consumer.ts"), CONSUMER);
    const example = firstBlock("docs/publishing.md", "ts", "## Calling the API");
    writeFileSync(join(project, "publishing-example.ts"), example);
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(TSCONFIG));
  }, 180_000);
  afterAll(async () => {
    if (project !== "") rmSync(project, { recursive: true, force: true });
  });

  const node = (file: string, env: Record<string, string>) =>
    runToExit("node", [join(project, "out", file)], { env, timeoutMs: 60_000 });

  it("when the package is installed, then it has no install script, declares what its code and types need, and is the file the pages install", () => {
    const manifest = JSON.parse(
      readFileSync(join(project, "node_modules", "plantstore-client", "package.json"), "utf8"),
    ) as { scripts?: unknown; dependencies: Record<string, string> };
    expect(manifest.scripts).toBeUndefined();
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["@types/node", "lossless-json"]);
    // The pages install the very file `npm run pack:client` makes.
    const [tarball] = readdirSync(join(project, "packages")).filter((f) =>
      f.startsWith("plantstore-client-"),
    );
    expect(tarball).toMatch(/^plantstore-client-\d+\.\d+\.\d+\.tgz$/);
    expect(readFileSync(join(REPO_ROOT, "docs/publishing.md"), "utf8")).toContain(
      `npm install ../plantstore/dist/${tarball}`,
    );
  });

  it("when plantstore-client is resolved, then nothing it loads imports a Node built-in (browsers bundle it)", () => {
    const require = createRequire(join(project, "consumer.js"));
    const entry = realpathSync(require.resolve("plantstore-client"));
    const { files, bare } = importsOf(entry);
    expect(files.length).toBeGreaterThan(1);
    expect(bare.filter((name) => isBuiltin(name))).toEqual([]);
  });

  it("when a strict TypeScript file using createClient and verifyWebhook, and the publishing page's example, are checked with tsc, then they compile", async () => {
    const tsc = join(REPO_ROOT, "node_modules", ".bin", "tsc");
    const checked = await runToExit(tsc, ["-p", join(project, "tsconfig.json")], {
      env: {},
      timeoutMs: 120_000,
    });
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  }, 120_000);

  it("when the compiled file runs against a real server, then its plant round-trips exactly and its signed delivery verifies", async () => {
    const id = 9007199254740993n + uniqueId();
    const run = await node("consumer.js", { URL: running().server.url, TOKEN, ID: String(id) });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      read: String(id),
      readExact: true,
      delivered: String(id),
      deliveredExact: true,
      name: "from another project",
      missing: 404,
    });
    expect(await running().db.store.resources.plants.get(id)).toEqual({
      id,
      name: "from another project",
    });
  }, 60_000);

  it("when docs/publishing.md's example runs against a real server, then it creates, reads, lists and deletes its plant", async () => {
    const source = readFileSync(join(project, "out", "publishing-example.js"), "utf8");
    writeFileSync(
      join(project, "out", "publishing-example.js"),
      replacedOnce(source, `"${PAGE_URL}"`, JSON.stringify(running().server.url)),
    );
    const run = await node("publishing-example.js", { TOKEN });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("9007199254740993n Monstera");
    expect(await running().db.store.resources.plants.get(9007199254740993n)).toBeUndefined();
  }, 60_000);
});
