// `plantstore conformance` as a user runs it: its options checked before anything is sent, the
// report on stdout with a curl line per failure, JUnit XML for CI, and the exit status.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { parseConformanceCommand } from "../../src/cli/conformance.ts";
import { UsageError } from "../../src/cli/tokens.ts";
import { TOKEN } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { startFaultyProxy } from "../helpers/faulty-proxy.ts";
import { type ServerProcess, startServer, useServerSuite } from "../helpers/server-process.ts";

describe("plantstore conformance options", () => {
  it("when --base-url is not an http(s) URL, then it is a usage mistake", () => {
    expect(() => parseConformanceCommand(["--base-url", "file:///etc"], {})).toThrow(UsageError);
    expect(() => parseConformanceCommand([], {})).toThrow(UsageError);
  });

  it("when --fresh is given without --allow-writes, then it is a usage mistake", () => {
    const args = ["--base-url", "http://127.0.0.1:1", "--fresh"];
    expect(() => parseConformanceCommand(args, {})).toThrow(/--fresh needs --allow-writes/);
  });

  it("when --max-body, --allow-webhooks and --webhook-receiver are given, then the run takes them", () => {
    const options = parseConformanceCommand(
      [
        ...["--base-url", "http://127.0.0.1:1", "--allow-writes", "--allow-webhooks"],
        ...["--max-body", "512KiB", "--webhook-receiver", "[::1]:9400"],
      ],
      {},
    );

    expect(options).toMatchObject({
      maxBodyBytes: 512 * 1024,
      allowWebhooks: true,
      webhookReceiver: { host: "::1", port: 9400 },
    });
  });

  it("when --webhook-receiver is given without --allow-writes, or a size or address is not one, then it is a usage mistake", () => {
    const base = ["--base-url", "http://127.0.0.1:1"];
    expect(() =>
      parseConformanceCommand([...base, "--webhook-receiver", "127.0.0.1:9400"], {}),
    ).toThrow(/--webhook-receiver needs --allow-writes/);
    expect(() => parseConformanceCommand([...base, "--max-body", "4GB"], {})).toThrow(UsageError);
    expect(() =>
      parseConformanceCommand([...base, "--allow-writes", "--webhook-receiver", "9400"], {}),
    ).toThrow(/HOST:PORT/);
  });

  it("when options are given, then the run takes them, and the token may come from CONFORMANCE_TOKEN", () => {
    const options = parseConformanceCommand(
      [
        ...["--base-url", "https://plants.example.com/api", "--max-requests", "20"],
        ...["--timeout", "500ms", "--operations", "getPlant,listPlants", "--allow-writes"],
        ...["--id-range", "9007199254740993-9007199254740999"],
      ],
      { CONFORMANCE_TOKEN: "from-the-environment" },
    );

    expect(options).toMatchObject({
      baseUrl: "https://plants.example.com/api",
      token: "from-the-environment",
      maxRequests: 20,
      timeoutMs: 500,
      operations: ["getPlant", "listPlants"],
      allowWrites: true,
      idRange: { from: 9007199254740993n, to: 9007199254740999n },
    });
  });
});

describe("plantstore conformance against a server", () => {
  const db = useServerSuite();
  const dir = mkdtempSync(join(tmpdir(), "plantstore-conformance-"));
  // A server per test: the suite stops every server after each test.
  let server: ServerProcess;
  beforeEach(async () => {
    server = await startServer({ databasePath: db.path });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("when every check passes, then it exits 0 and writes a JUnit file without failures", async () => {
    const junit = join(dir, "healthy.xml");
    const args = ["conformance", "--base-url", server.url, "--token", TOKEN, "--junit", junit];

    const result = await runCli(`sqlite:${db.path}`, [
      ...args,
      "--operations",
      "getHealth,getPlant",
    ]);

    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ok {3}getPlant: \d+ checks, 0 failed$/m);
    const xml = readFileSync(junit, "utf8");
    expect(xml).toMatch(/<testsuites name="plantstore conformance" tests="\d+" failures="0">/);
    expect(xml).toContain('<testsuite name="getHealth"');
  });

  it("when an operation answers 500, then it exits 1 and the report gives the rule and a curl line", async () => {
    const proxy = await startFaultyProxy(server.url, ({ url }, answer) =>
      url.startsWith("/healthz") ? { ...answer, status: 500 } : answer,
    );
    const junit = join(dir, "broken.xml");
    try {
      const result = await runCli(`sqlite:${db.path}`, [
        ...["conformance", "--base-url", proxy.url, "--token", TOKEN],
        ...["--operations", "getHealth", "--junit", junit],
      ]);

      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^FAIL getHealth: \d+ checks, [1-9]\d* failed$/m);
      expect(result.stdout).toContain(`reproduce: curl -i -X GET '${proxy.url}/healthz`);
      expect(readFileSync(junit, "utf8")).toMatch(/<failure message="[^"]*500/);
    } finally {
      await proxy.close();
    }
  });
});
