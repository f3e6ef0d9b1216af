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

describe("conformance through a broken proxy", () => {
  const db = useServerSuite();
  let server: ServerProcess;
  let run: RunResult;

  beforeAll(async () => {
    server = await startServer({ databasePath: db.path });
    const proxy = await startFaultyProxy(server.url, ({ url }, answer) =>
      Object.values(FAULTS).reduce((rewritten, fault) => fault(url, rewritten), answer),
    );
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
  });
  afterAll(async () => {
    await server?.stop();
  });

  const failed = (operationId: string | undefined, rule: RegExp) =>
    run.checks.filter(
      (check) =>
        (operationId === undefined || check.operationId === operationId) &&
        check.broken.some((broken) => rule.test(broken)),
    );

  it("when the proxy drops a required header, then the run names the missing header", () => {
    expect(failed(undefined, /the WWW-Authenticate header is missing/).length).toBeGreaterThan(0);
  });

  it("when the proxy rounds int64s past 2^53, then the created id reads back as another", () => {
    const rounded = failed("getPlant", /^id \d+ \(created\) reads back as \d+$/)
      .flatMap((check) => check.broken)
      .map((broken) => /^id (\d+) \(created\) reads back as (\d+)$/.exec(broken))
      .filter((match) => match !== null);
    expect(rounded).not.toEqual([]);
    for (const [, id, read] of rounded) {
      expect(BigInt(id ?? 0) >= DEFAULT_OPTIONS.idRange.from).toBe(true);
      expect(read).toBe(String(Number(id)));
      expect(read).not.toBe(id);
    }
  });

  it("when the proxy rounds int64s past 2^53, then an id the list names is read back and not found", () => {
    // The list names the created plant by its rounded id; that id's 404 comes back through
    // the proxy as a 200 page of HTML.
    const listed = failed("getPlant", /^id \d+ \(listed\) reads back as no id$/).flatMap((check) =>
      check.broken.filter((broken) => broken.includes("(listed)")),
    );
    expect(listed).not.toEqual([]);
    for (const broken of listed) {
      const id = /^id (\d+)/.exec(broken)?.[1] ?? "";
      expect(BigInt(id), broken).toBeGreaterThanOrEqual(2n ** 53n);
      expect(String(Number(id)), broken).toBe(id);
    }
  });

  it("when a member sent is not read back, then the run names the table and the member", () => {
    expect(
      failed("(stored data)", /^after the create, plants\.tag came back as null, not as sent/),
    ).not.toEqual([]);
  });

  it("when the proxy turns a 404 into 200 with HTML, then the example and the media type are named", () => {
    expect(failed("getPlant", /the example answers 404, the deployment 200/)).not.toEqual([]);
    expect(failed("getPlant", /content type text\/html.* is not one of/)).not.toEqual([]);
  });

  it("when the proxy answers 500 to one operation, then that operation fails and is named", () => {
    expect(failed("getHealth", /500/)).not.toEqual([]);
  });

  it("when the proxy adds an undocumented status, then the run says it is not documented", () => {
    expect(failed("getReadiness", /status not documented/)).not.toEqual([]);
  });
});
