// The conformance run against a deployment that attacks it: a `pattern` that backtracks for
// ever on its own answer, an answer that never ends, one that never comes, and control
// characters in its document and answers. The run stays within its bounds (--max-time,
// --timeout, --max-body), says what happened, and prints nothing a terminal would act on; its
// reproduce lines run curl and nothing else when pasted into a shell.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformanceCommand } from "../../src/cli/conformance.ts";
import { linearRegExp } from "../../src/conformance/linear-regexp.ts";
import { type ConformanceOptions, DEFAULT_OPTIONS } from "../../src/conformance/options.ts";
import { curlLine } from "../../src/conformance/report.ts";
import type { RunResult } from "../../src/conformance/results.ts";
import { runConformance } from "../../src/conformance/run.ts";

const EVIL = "\u001b[2J\u001b]0;owned\u0007\r\nok   forged: 1 checks, 0 failed\u009b31m\u202e";

const operation = (operationId: string, schema: unknown) => ({
  get: {
    operationId,
    security: [],
    responses: {
      "200": { description: "ok", content: { "application/json": { schema } } },
    },
  },
});

const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "hostile", version: "1.0.0" },
  paths: {
    // Backtracks for ever (2^40 ways) on forty a's and a bang, with a backtracking engine.
    "/redos": operation("getRedos", {
      type: "object",
      properties: { name: { type: "string", pattern: "^(a+)+$" } },
    }),
    "/endless": operation("getEndless", { type: "object" }),
    "/silent": operation("getSilent", { type: "object" }),
    "/evil": operation(`getEvil${EVIL}`, { type: "object", required: ["never"] }),
  },
};

let server: Server;
let baseUrl = "";
const dir = mkdtempSync(join(tmpdir(), "plantstore-hostile-run-"));

beforeAll(async () => {
  server = createServer((request, response) => {
    const json = { "content-type": "application/json" };
    switch (request.url) {
      case "/openapi.json":
        return void response.writeHead(200, json).end(JSON.stringify(DOCUMENT));
      case "/redos":
        return void response.writeHead(200, json).end(`{"name":"${"a".repeat(40)}!"}`);
      case "/endless": {
        // Answers for as long as it is read: the client must stop.
        response.writeHead(200, json);
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const more = () => {
          while (!response.destroyed && response.write(chunk));
          if (!response.destroyed) response.once("drain", more);
        };
        return void more();
      }
      case "/silent":
        return; // never answered
      default:
        return void response.writeHead(200, json).end(JSON.stringify({ said: EVIL }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const options = (more: Partial<ConformanceOptions>): ConformanceOptions => ({
  ...DEFAULT_OPTIONS,
  baseUrl,
  probesPerOperation: 1,
  ...more,
});

const broken = (run: RunResult, operationId: string) =>
  run.checks.filter((c) => c.operationId === operationId).flatMap((c) => c.broken);

describe("conformance against a hostile deployment", () => {
  it("when its pattern backtracks on its own answer, then the pattern runs in linear time and the mismatch is named", async () => {
    const run = await runConformance(
      options({ operations: ["getRedos"], maxTimeMs: 5000, timeoutMs: 3000 }),
    );

    expect(broken(run, "getRedos").join("\n")).toContain('must match pattern "^(a+)+$"');
    expect(run.notes).not.toContain("a step stopped early: --max-time reached");
  });

  it("when an answer never comes, then the request in flight is cut at --max-time and the run ends", async () => {
    const run = await runConformance(
      options({ operations: ["getSilent"], maxTimeMs: 1500, timeoutMs: 120_000 }),
    );

    expect(broken(run, "getSilent")).toContain("no answer: --max-time reached");
  });

  it("when an answer never ends, then it is read up to --max-body and refused", async () => {
    const run = await runConformance(
      options({ operations: ["getEndless"], maxBodyBytes: 1024 * 1024, timeoutMs: 30_000 }),
    );

    const rules = broken(run, "getEndless");
    expect(rules.length).toBeGreaterThan(0);
    expect(new Set(rules)).toEqual(
      new Set(["the answer's body is over 1048576 bytes (--max-body): not read"]),
    );
  });

  it("when its document and answers carry control characters, then the report prints them escaped and no line is forged", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const junit = join(dir, "evil.xml");

    const code = await runConformanceCommand(
      { ...options({ operations: [`getEvil${EVIL}`] }), junit },
      { out: (text) => out.push(text), err: (text) => err.push(text) },
    );

    const report = out.join("");
    expect(code).toBe(1);
    expect(report).toContain("FAIL getEvil\\x1b[2J\\x1b]0;owned\\x07\\x0d\\x0aok   forged");
    expect(report).toContain("\\x9b31m\\u202e");
    expect(report).not.toMatch(/^ok {3}forged/m);
    // Nothing a terminal acts on: no control character but the line ends.
    const printed = `${report}${err.join("")}`.replaceAll("\n", "");
    expect(printed).not.toMatch(/[\p{Cc}\p{Bidi_Control}]/u);
    expect(readFileSync(junit, "utf8").replaceAll("\n", "")).not.toMatch(/[\p{Cc}]/u);
  });
});

describe("reproduce lines", () => {
  it("when one is pasted into bash, then only curl runs, with the request's own bytes", () => {
    const marker = join(dir, "ran");
    const fakeCurl = join(dir, "curl");
    writeFileSync(fakeCurl, `#!/bin/sh\nprintf '%s\\n' "$@" > ${join(dir, "args")}\n`);
    chmodSync(fakeCurl, 0o755);
    const hostile = `$(touch ${marker})\`touch ${marker}\`'"; touch ${marker}; '\u001b[2J`;

    const line = curlLine(`${baseUrl}/evil?q=${hostile}`, {
      method: "POST",
      target: "/evil",
      headers: { authorization: `Basic ${hostile}`, "x-note": hostile },
      body: `{"name":"${hostile}"}`,
    });
    execFileSync("bash", ["-c", line], { env: { PATH: `${dir}:/usr/bin:/bin`, TOKEN: "t" } });

    expect(existsSync(marker)).toBe(false);
    expect(line).not.toMatch(/\p{Cc}/u);
    const args = readFileSync(join(dir, "args"), "utf8").split("\n");
    expect(args).toContain(`authorization: Basic ${hostile}`);
    expect(args).toContain(`x-note: ${hostile}`);
    expect(args).toContain(`{"name":"${hostile}"}`);
  });

  it("when the request carries the run's bearer token, then the line names $TOKEN, not the token", () => {
    const line = curlLine("http://127.0.0.1:1/plants", {
      method: "GET",
      target: "/plants",
      headers: { authorization: "Bearer secret-token-value" },
    });

    expect(line).toContain('-H "authorization: Bearer $TOKEN"');
    expect(line).not.toContain("secret-token-value");
  });
});

describe("the linear pattern engine", () => {
  it("when two patterns are compiled, then each is its own, and one RE2 cannot take is reported unchecked", () => {
    const unchecked: string[] = [];
    const engine = linearRegExp((pattern) => unchecked.push(pattern));

    expect(engine("^a+$", "u").test("aaa")).toBe(true);
    expect(engine("^b+$", "u").test("aaa")).toBe(false);
    expect(engine("^(a+)+$", "u").test(`${"a".repeat(100_000)}!`)).toBe(false);
    expect(engine("(?=a)a", "u").test("b")).toBe(true);
    expect(unchecked).toEqual(["(?=a)a"]);
  });
});
