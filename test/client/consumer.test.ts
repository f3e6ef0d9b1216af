// `import { createClient } from "plantstore/client"` in a fresh project next to a running
// server: the package's `exports` resolve to the built client (npm ci builds it through
// `prepare`; built again here so the test sees this checkout), its types check under plain
// `tsc`, and plain `node` round-trips id 9007199254740993 with no code of the consumer's own.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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

describe("plantstore/client in a fresh project", () => {
  let project = "";
  const running = useRunningServer(sqliteEngine);
  beforeAll(async () => {
    project = await makeConsumerProject("plantstore-consumer-");
    writeFileSync(join(project, "consumer.mjs"), CONSUMER);
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
    expect(await running().db.store.get(9007199254740993n)).toEqual({
      name: "from a fresh project",
    });
  });
});
