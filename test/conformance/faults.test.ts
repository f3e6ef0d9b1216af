// The conformance run against a broken proxy in front of a healthy server: each fault a gateway
// or proxy can bring is found, on the operation it hits, and named.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../../src/conformance/options.ts";
import type { RunResult } from "../../src/conformance/results.ts";
import { runConformance } from "../../src/conformance/run.ts";
import { TOKEN } from "../helpers/app.ts";
import { type ProxiedAnswer, startFaultyProxy } from "../helpers/faulty-proxy.ts";
import { type ServerProcess, startServer, useServerSuite } from "../helpers/server-process.ts";

const HTML = { "content-type": "text/html; charset=utf-8" };

/** Each fault: what it does to an answer (or leaves it as it is). */
const FAULTS = {
  "drops the required WWW-Authenticate header": (_url: string, answer: ProxiedAnswer) => {
    const { "www-authenticate": _dropped, ...headers } = answer.headers;
    return { ...answer, headers };
  },
  "re-encodes JSON numbers as doubles (rounds int64 past 2^53)": (
    _url: string,
    answer: ProxiedAnswer,
  ) =>
    answer.headers["content-type"]?.includes("json") === true
      ? { ...answer, body: JSON.stringify(JSON.parse(answer.body)) }
      : answer,
  "drops the optional tag from the plant a GET answers (a store that does not keep it)": (
    url: string,
    answer: ProxiedAnswer,
  ) => {
    if (!/^\/plants\/[^/?]+$/.test(url) || answer.status !== 200) return answer;
    const { tag: _dropped, ...plant } = JSON.parse(answer.body) as Record<string, unknown>;
    return { ...answer, body: JSON.stringify(plant) };
  },
  "turns a 404 into 200 with an HTML page": (_url: string, answer: ProxiedAnswer) =>
    answer.status === 404
      ? { status: 200, headers: HTML, body: "<html><body>Not here</body></html>" }
      : answer,
  "answers 500 to GET /healthz": (url: string, answer: ProxiedAnswer) =>
    url.startsWith("/healthz") ? { ...answer, status: 500 } : answer,
  "answers an undocumented 418 to GET /readyz": (url: string, answer: ProxiedAnswer) =>
    url.startsWith("/readyz") ? { ...answer, status: 418 } : answer,
};

/** A run that went through the proxy: the checks that failed on an operation with a rule. */
type Failed = (operationId: string | undefined, rule: RegExp) => RunResult["checks"];

/** What the run must say of each fault, checked together on one run. */
const FINDINGS: Record<string, (failed: Failed, finding: string) => void> = {
  "a dropped required header is named": (failed, finding) => {
    expect
      .soft(failed(undefined, /the WWW-Authenticate header is missing/), finding)
      .not.toEqual([]);
  },
  "an int64 rounded past 2^53 makes the created id read back as another": (failed, finding) => {
    const rounded = failed("getPlant", /^id \d+ \(created\) reads back as \d+$/)
      .flatMap((check) => check.broken)
      .map((broken) => /^id (\d+) \(created\) reads back as (\d+)$/.exec(broken))
      .filter((match) => match !== null);
    expect.soft(rounded, finding).not.toEqual([]);
    for (const [, id, read] of rounded) {
      expect.soft(BigInt(id ?? 0), finding).toBeGreaterThanOrEqual(DEFAULT_OPTIONS.idRange.from);
      expect.soft(read, finding).toBe(String(Number(id)));
      expect.soft(read, finding).not.toBe(id);
    }
  },
  "an int64 rounded past 2^53 makes an id the list names read back as not found": (
    failed,
    finding,
  ) => {
    // The list names the created plant by its rounded id; that id's 404 comes back through
    // the proxy as a 200 page of HTML.
    const listed = failed("getPlant", /^id \d+ \(listed\) reads back as no id$/).flatMap((check) =>
      check.broken.filter((broken) => broken.includes("(listed)")),
    );
    expect.soft(listed, finding).not.toEqual([]);
    for (const broken of listed) {
      const id = /^id (\d+)/.exec(broken)?.[1] ?? "";
      expect.soft(BigInt(id), broken).toBeGreaterThanOrEqual(2n ** 53n);
      expect.soft(String(Number(id)), broken).toBe(id);
    }
  },
  "a member sent and not read back is named with its table": (failed, finding) => {
    expect
      .soft(
        failed("(stored data)", /^after the create, plants\.tag came back as null, not as sent/),
        finding,
      )
      .not.toEqual([]);
  },
  "a 404 turned into 200 with HTML names the example and the media type": (failed, finding) => {
    expect
      .soft(failed("getPlant", /the example answers 404, the deployment 200/), finding)
      .not.toEqual([]);
    expect
      .soft(failed("getPlant", /content type text\/html.* is not one of/), finding)
      .not.toEqual([]);
  },
  "a 500 on one operation fails that operation": (failed, finding) => {
    expect.soft(failed("getHealth", /500/), finding).not.toEqual([]);
  },
  "an undocumented status is said to be not documented": (failed, finding) => {
    expect.soft(failed("getReadiness", /status not documented/), finding).not.toEqual([]);
  },
};

describe("conformance through a broken proxy", () => {
  const db = useServerSuite();
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer({ databasePath: db.path });
  });
  afterAll(async () => {
    await server?.stop();
  });

  // One run, inside the test: code a run reaches in a hook is reached by no test, to the
  // mutation tests, which would then never run this suite against a fault in the steps.
  it("when every fault is on at once, then each is found on the operation it hits and named", async () => {
    const proxy = await startFaultyProxy(server.url, ({ url }, answer) =>
      Object.values(FAULTS).reduce((rewritten, fault) => fault(url, rewritten), answer),
    );
    let run: RunResult;
    try {
      run = await runConformance({
        ...DEFAULT_OPTIONS,
        baseUrl: proxy.url,
        token: TOKEN,
        allowWrites: true,
        maxWrites: 100,
      });
    } finally {
      await proxy.close();
    }
    const failed: Failed = (operationId, rule) =>
      run.checks.filter(
        (check) =>
          (operationId === undefined || check.operationId === operationId) &&
          check.broken.some((broken) => rule.test(broken)),
      );
    for (const [finding, check] of Object.entries(FINDINGS)) {
      check(failed, finding);
    }
  });
});
