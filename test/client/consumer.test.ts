// `import { createClient } from "plantstore/client"` in a fresh project next to a running
// server: the package's `exports` resolve to the built client (npm ci builds it through
// `prepare`; built again here so the test sees this checkout), its types check under plain
// `tsc`, and plain `node` round-trips id 9007199254740993 with no code of the consumer's own.
// `plantstore/client` runs in browsers too: nothing it loads imports a Node built-in; the
// receiver's verifyWebhook (node:crypto) is `plantstore/client/webhooks`.
import { readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN } from "../helpers/app.ts";
import { makeConsumerProject } from "../helpers/consumer-project.ts";
import { runToExit } from "../helpers/run-process.ts";
import { useRunningServer } from "../helpers/running-server.ts";
import { REPO_ROOT } from "../helpers/server-process.ts";
import { sqliteEngine } from "../helpers/stores.ts";

const CONSUMER = `import { createClient } from "plantstore/client";
const client = createClient({ baseUrl: process.env.URL, token: process.env.TOKEN });
const id = 9007199254740993n;
await client.createPlant({ body: { id, name: "from a fresh project" } });
const plant = await client.getPlant({ path: { id } });
console.log(JSON.stringify({ id: String(plant.id), exact: plant.id === id, name: plant.name }));
`;
const RECEIVER = `import { verifyWebhook, WebhookVerificationError } from "plantstore/client/webhooks";
try {
  verifyWebhook("{}", {}, "whsec_AAAA");
} catch (error) {
  console.log(error instanceof WebhookVerificationError);
}
`;

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

describe("plantstore/client in a fresh project", () => {
  let project = "";
  const running = useRunningServer(sqliteEngine);
  beforeAll(async () => {
    project = await makeConsumerProject("plantstore-consumer-");
    writeFileSync(join(project, "consumer.mjs"), CONSUMER);
    writeFileSync(join(project, "receiver.mjs"), RECEIVER);
    writeFileSync(join(project, "consumer.ts"), CONSUMER.replace("process.env.URL", '"http://x"'));
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          types: ["node"],
          typeRoots: [join(REPO_ROOT, "node_modules", "@types")],
        },
        files: ["consumer.ts"],
      }),
    );
  }, 60_000);
  afterAll(async () => {
    if (project !== "") rmSync(project, { recursive: true, force: true });
  });

  it("when plantstore/client is resolved, then nothing it loads imports a Node built-in (browsers bundle it)", () => {
    const require = createRequire(join(project, "consumer.mjs"));
    const entry = realpathSync(require.resolve("plantstore/client"));
    const { files, bare } = importsOf(entry);
    expect(files.length).toBeGreaterThan(1);
    expect(bare.filter((name) => isBuiltin(name))).toEqual([]);
  });

  it("when plantstore/client/webhooks is imported with node, then verifyWebhook refuses an unsigned delivery", async () => {
    const run = await runToExit("node", [join(project, "receiver.mjs")], { env: {} });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("true");
  });

  it("when its types are checked with tsc, then the client's types resolve (ids as bigint)", async () => {
    const tsc = join(REPO_ROOT, "node_modules", ".bin", "tsc");
    const checked = await runToExit(tsc, ["-p", join(project, "tsconfig.json")], { env: {} });
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  });

  it("when run with node against a running server, then id 9007199254740993 round-trips exactly", async () => {
    const run = await runToExit("node", [join(project, "consumer.mjs")], {
      env: { URL: running().server.url, TOKEN },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      id: "9007199254740993",
      exact: true,
      name: "from a fresh project",
    });
    expect(await running().db.store.resources.plants.get(9007199254740993n)).toEqual({
      id: 9007199254740993n,
      name: "from a fresh project",
    });
  });
});
