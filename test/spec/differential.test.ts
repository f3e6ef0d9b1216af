// Differential: the app as served (a Fastify route per operation, with the shortcuts of
// src/http/operation-routes.ts and src/openapi/routed.ts) must answer every request exactly as
// the reference app does, which sends every request through openapi-backend's own
// handleRequest (buildApp's referencePipeline). Each request goes to both apps in turn, each on
// a fresh SQLite store of its own, so the two stores go through the same states; the status,
// the headers and the body's bytes must be the same. The requests: every path and method of the
// document (read from it, so a new operation is covered without edits) with odd paths, tokens,
// queries and bodies; then the fuzz corpus of test/helpers/fuzz-corpus.ts. Bounded: a fixed
// seed plus one random one, printed for replay
// (FUZZ_SEEDS=1,2 npx vitest run test/spec/differential.test.ts).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { generateToken, hashToken, newTokenId } from "../../src/auth/managed-token.ts";
import { HTTP_METHODS, loadDocument } from "../../src/openapi/document.ts";
import type { NewToken } from "../../src/store/tokens.ts";
import {
  createTestApp,
  OTHER_TOKEN,
  type TestApp,
  type TestAppOptions,
  TOKEN,
} from "../helpers/app.ts";
import {
  fuzzSeeds,
  idText,
  jsonText,
  nearMissPlant,
  oddHeaders,
  printable,
  step,
  stepRequest,
} from "../helpers/fuzz-corpus.ts";
import { rawRequest } from "../helpers/socket-http.ts";
import { sqliteEngine } from "../helpers/stores.ts";

const SEEDS = fuzzSeeds(1);

const ALLOWED_ORIGIN = "https://allowed.example";
const AUTH_FAILURE_LIMIT = 10;
// The rate limits stay on, so their counting and RateLimit fields are compared too: rejected
// credentials are counted per client address (each request below comes from an address of its
// own unless it says otherwise, so only the test meant to reach that limit does); the
// per-caller limit is high enough for the run never to reach it. CORS for one origin, so that
// preflights are answered both ways.
const APP_OPTIONS: TestAppOptions = {
  ops: {
    authFailureLimit: AUTH_FAILURE_LIMIT,
    tokenRateLimit: 1_000_000,
    corsOrigins: [ALLOWED_ORIGIN],
  },
};
// One frozen clock for both apps, from before they are built: a rate-limit window then ends at
// the same second in both (RateLimit t=, Retry-After and a 429's "retry in N s" are compared
// exactly) instead of possibly a second apart, and managed tokens expire the same way in both.
const NOW = new Date("2026-01-07T12:00:00Z");

// ---- the two apps, and one request sent to both ----

let served: TestApp;
let reference: TestApp;

/** A request: sent as it is to both apps. */
interface Probe {
  method: string;
  url: string;
  headers?: Record<string, string | string[]>;
  payload?: string | Buffer;
  /** The client's address; by default a fresh one per request (see APP_OPTIONS). */
  remoteAddress?: string;
}

/**
 * What an app answered, and, when test/helpers/app.ts rejected the answer as one the YAML does
 * not document, why (both apps must agree on that too).
 */
interface Outcome {
  res: LightMyRequestResponse;
  undocumented?: string;
}

let requestsSent = 0;

/**
 * Sends `probe` to the app as served, then to the reference; with a report of both answers
 * when they differ (see `comparable`).
 */
async function both(probe: Probe): Promise<{ difference?: string; answer: Outcome }> {
  const n = requestsSent++;
  const options: InjectOptions = {
    method: probe.method,
    url: probe.url,
    headers: probe.headers ?? {},
    remoteAddress: probe.remoteAddress ?? `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    ...(probe.payload === undefined ? {} : { payload: probe.payload }),
  };
  const answer = await outcomeOf(served, options);
  const expected = await outcomeOf(reference, options);
  const [got, want] = [comparable(answer), comparable(expected)];
  if (isDeepStrictEqual(got, want)) return { answer };
  return { difference: report(probe, got, want), answer };
}

async function outcomeOf(test: TestApp, options: InjectOptions): Promise<Outcome> {
  try {
    return { res: await test.app.inject(options) };
  } catch (error) {
    const { response, message } = error as Error & { response?: LightMyRequestResponse };
    if (response === undefined) throw error;
    return { res: response, undocumented: message };
  }
}

interface Comparable {
  status: number;
  headers: Record<string, unknown>;
  /** The body's bytes, one character each (latin1), so that the comparison is exact. */
  body: string;
  undocumented?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * An answer as far as two instances must agree on it: the status, every header and the body's
 * exact bytes, except for what legitimately differs between two instances:
 * - `date`: the wall clock at the moment each app answered (Node's own, which the frozen clock
 *   of NOW does not reach; a second may turn between the two answers);
 * - `x-request-id`, when the caller sent none or no sane one: a fresh random UUID per answer
 *   (a sane one is echoed, and compared);
 * - in Prometheus text (GET /metrics), the process-wide series (memory, CPU, event loop: one
 *   process, sampled at two moments) and the values of the duration histograms' buckets and
 *   sums (how long each request took), and so the content-length. Every plantstore_ counter and
 *   histogram count (requests by operation, method and status; plants created; failed
 *   authentications) is compared.
 */
function comparable({ res, undocumented }: Outcome): Comparable {
  const { date: _date, ...headers } = res.headers;
  if (typeof headers["x-request-id"] === "string" && UUID.test(headers["x-request-id"])) {
    headers["x-request-id"] = "<a fresh UUID>";
  }
  let body = res.rawPayload.toString("latin1");
  if (String(headers["content-type"]).startsWith("text/plain; version=0.0.4")) {
    body = withoutTimings(body);
    delete headers["content-length"];
  }
  return {
    status: res.statusCode,
    headers,
    body,
    ...(undocumented === undefined ? {} : { undocumented }),
  };
}

function withoutTimings(metrics: string): string {
  return metrics
    .split("\n")
    .filter((line) => /^(# (HELP|TYPE) )?plantstore_/.test(line))
    .map((line) => line.replace(/^(plantstore_\w+_(bucket|sum)\b.*) \S+$/, "$1 <a duration>"))
    .join("\n");
}

/** The request and both answers as compared, the body shown where they first differ. */
function report(probe: Probe, got: Comparable, want: Comparable): string {
  let at = 0;
  while (at < got.body.length && got.body[at] === want.body[at]) at++;
  const show = (answer: Comparable) =>
    [
      `${answer.status} ${JSON.stringify(answer.headers)}`,
      `  body: ${excerpt(Buffer.from(answer.body, "latin1").toString(), at)}`,
      ...(answer.undocumented === undefined ? [] : [`  undocumented: ${answer.undocumented}`]),
    ].join("\n");
  const from = probe.remoteAddress === undefined ? "" : ` from ${probe.remoteAddress}`;
  return [
    "the app with its per-operation shortcuts answered differently from handleRequest",
    `request: ${probe.method} ${probe.url}${from}`,
    `  headers: ${JSON.stringify(probe.headers ?? {})}`,
    ...(probe.payload === undefined ? [] : [`  body: ${excerpt(probe.payload.toString(), 0)}`]),
    `shortcut app: ${show(got)}`,
    `reference:    ${show(want)}`,
  ].join("\n");
}

/** `text` as JSON (to show everything); past 600 characters, 600 from a little before `at`. */
function excerpt(text: string, at: number): string {
  if (text.length <= 600) return JSON.stringify(text);
  const start = Math.max(0, Math.min(at, text.length) - 100);
  const end = Math.min(text.length, start + 600);
  return `${start > 0 ? "…" : ""}${JSON.stringify(text.slice(start, end))}${end < text.length ? "…" : ""} (characters ${start}-${end} of ${text.length})`;
}

/** Sends every probe to both apps, in order, and fails naming every difference. */
async function expectSame(probes: readonly Probe[]): Promise<void> {
  const differences: string[] = [];
  for (const probe of probes) {
    const { difference } = await both(probe);
    if (difference !== undefined) differences.push(difference);
  }
  expect(
    differences.length,
    // The first difference is the one to look at: the later ones may only follow from it, the
    // two apps' stores and counters (RateLimit r=) having parted there.
    `${differences.length} of ${probes.length} requests answered differently; the first ${Math.min(5, differences.length)}:\n\n${differences.slice(0, 5).join("\n\n")}`,
  ).toBe(0);
}

/** For a fast-check property: throws the report when the two apps answered differently. */
async function same(probe: Probe): Promise<void> {
  const { difference } = await both(probe);
  if (difference !== undefined) throw new Error(difference);
}

// Stateful runs: after a difference the stores may differ too, so a shrunk counterexample
// would mislead; the first one found is reported as it was.
const runs = (seed: number, numRuns: number) => ({ seed, numRuns, endOnFailure: true });

// ---- what the requests are made of ----

const document = loadDocument();
const paths = Object.keys(document.paths ?? {});
/** Every operation of the document: its path (templated) and method. */
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  HTTP_METHODS.filter((method) => (item as Record<string, unknown> | undefined)?.[method]).map(
    (method) => ({ path, method: method.toUpperCase() }),
  ),
);

/** Methods tried on every path: the document's, others Fastify knows, and one it does not. */
const METHODS = [
  ...new Set([
    ...operations.map((operation) => operation.method),
    ...["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "QUERY"],
    "PURGE",
  ]),
];

/** Text for a path parameter: ids, asset names, percent-encodings, empty and dot segments. */
const SEGMENTS = [
  "1",
  "42",
  "init.js",
  "swagger-ui.css",
  "nope.js",
  "%31",
  "%2F",
  "%2f1",
  "%69nit.js",
  "",
  ".",
  "..",
  "%2e%2e",
  "-0",
  "01",
  "9223372036854775808",
  "a%20b",
  "%E2%98%83",
  "%ZZ",
  "%00",
  // Past Fastify's longest path parameter (100 characters).
  "1".repeat(101),
  "a".repeat(101),
];

/** `path` with each template filled with `segment`. */
const fill = (path: string, segment: string): string => path.replace(/\{[^{}/]+\}/g, segment);

const VALID = `Bearer ${TOKEN}`;
const JSON_BODY = { "content-type": "application/json" } as const;
const NEW_PLANT = '{"id":77,"name":"Fern","tag":"green"}';
const hasBody = (method: string): boolean => ["POST", "PUT", "PATCH", "QUERY"].includes(method);

/** The request a client would make for `method` on `url`: with a token, and a body if due. */
function plainProbe(method: string, url: string, headers: Record<string, string> = {}): Probe {
  return {
    method,
    url,
    headers: {
      authorization: VALID,
      ...(hasBody(method) ? JSON_BODY : {}),
      ...headers,
    },
    ...(hasBody(method) ? { payload: NEW_PLANT } : {}),
  };
}

const QUERIES = [
  "?",
  "?x=1",
  "?limit=2",
  "?limit=2&after=1",
  "?after=abc",
  "?after=",
  "?limit=0",
  "?limit=1&limit=2",
  "?limit=%32",
  "?__proto__=1",
  "?constructor=x",
  "?a[b]=1",
  "?%zz=1",
  "?limit=1#fragment",
];

/** Each path as it might be mistyped: slashes, case, parameters, dot segments, encodings. */
function pathVariants(path: string): string[] {
  const last = path.at(-1) ?? "";
  const encodedLast = `%${last.charCodeAt(0).toString(16).toUpperCase()}`;
  return [
    `${path}/`,
    `${path}//`,
    `/${path}`,
    path.toUpperCase(),
    `${path};x=1`,
    `${path}/.`,
    `${path}/..`,
    `${path}%2F`,
    `${path.slice(0, -1)}${encodedLast}`,
    `${path}%20`,
  ];
}

const OVERSIZED = `{"id":5,"name":"${"a".repeat(64 * 1024)}"}`;

/** Bodies and content types on every operation, with a valid token. */
const BODIES: readonly { headers: Record<string, string | string[]>; payload?: string }[] = [
  { headers: JSON_BODY, payload: NEW_PLANT },
  { headers: JSON_BODY, payload: "" },
  { headers: JSON_BODY, payload: '{"id":78,' },
  { headers: { "content-type": "text/plain" }, payload: NEW_PLANT },
  { headers: { "content-type": "application/json; charset=latin1" }, payload: NEW_PLANT },
  { headers: { "content-type": "application/x-www-form-urlencoded" }, payload: "id=1&name=x" },
  { headers: { "content-type": "nonsense" }, payload: NEW_PLANT },
  { headers: {}, payload: NEW_PLANT },
  { headers: { ...JSON_BODY, "content-encoding": "gzip" }, payload: NEW_PLANT },
  { headers: { "content-type": ["application/json", "text/plain"] }, payload: NEW_PLANT },
  { headers: JSON_BODY, payload: OVERSIZED },
  { headers: { "content-type": "text/plain" }, payload: OVERSIZED },
];

// ---- the tests ----

describe("the app with its per-operation routes and shortcuts, against handleRequest", () => {
  /** Authorization headers, by what they are. */
  let credentials: Record<string, string | string[] | undefined> = {};

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    [served, reference] = await Promise.all([
      createTestApp(sqliteEngine, undefined, APP_OPTIONS),
      createTestApp(sqliteEngine, undefined, { ...APP_OPTIONS, referencePipeline: true }),
    ]);
    /** The same managed token in both stores: its Authorization header. */
    const managed = async (
      name: string,
      record: Partial<Pick<NewToken, "scopes" | "expiresAt">>,
      revoked = false,
    ) => {
      const token = generateToken();
      for (const test of [served, reference]) {
        const id = newTokenId();
        await test.db.store.tokens.create({
          id,
          name,
          hash: hashToken(token),
          scopes: null,
          createdAt: new Date(NOW.getTime() - 3_600_000),
          expiresAt: null,
          ...record,
        });
        if (revoked) await test.db.store.tokens.revoke(id, new Date(NOW.getTime() - 60_000));
      }
      return `Bearer ${token}`;
    };
    const unknown = generateToken();
    credentials = {
      none: undefined,
      valid: VALID,
      other: `Bearer ${OTHER_TOKEN}`,
      "lower-case scheme": `bearer ${TOKEN}`,
      "extra spaces": `Bearer   ${TOKEN}`,
      unknown: "Bearer not-a-known-token-0123456789",
      "scheme only": "Bearer",
      empty: "",
      basic: "Basic dXNlcjpwdw==",
      twice: [VALID, `Bearer ${OTHER_TOKEN}`],
      "managed, read only": await managed("reader", { scopes: ["plants:read"] }),
      "managed, write only": await managed("writer", { scopes: ["plants:write"] }),
      "managed, no scopes": await managed("nothing", { scopes: [] }),
      "managed, full": await managed("full", {}),
      "managed, expired": await managed("expired", {
        expiresAt: new Date(NOW.getTime() - 1_000),
      }),
      "managed, revoked": await managed("revoked", {}, true),
      "managed, unknown": `Bearer ${unknown}`,
      "managed, bad checksum": `Bearer ${unknown.slice(0, -1)}${unknown.endsWith("0") ? "1" : "0"}`,
    };
    // Plants for the reads below to find.
    await expectSame(
      ["1", "42", "-5"].map((id) => ({
        ...plainProbe("POST", "/plants"),
        payload: `{"id":${id},"name":"plant ${id}"}`,
      })),
    );
  });

  afterAll(async () => {
    await served?.close();
    await reference?.close();
    vi.useRealTimers();
  });

  it("when every method is sent to every path of the document, then both answer alike", async () => {
    await expectSame(
      paths.flatMap((path) => METHODS.map((method) => plainProbe(method, fill(path, "1")))),
    );
  });

  it("when every operation gets every kind of path parameter, then both answer alike", async () => {
    await expectSame(
      operations
        .filter(({ path }) => fill(path, "") !== path)
        .flatMap(({ path, method }) =>
          SEGMENTS.map((segment) => plainProbe(method, fill(path, segment))),
        ),
    );
  });

  it("when every operation gets missing, wrong and badly scoped tokens, then both answer alike", async () => {
    await expectSame(
      operations.flatMap(({ path, method }) =>
        Object.values(credentials).map((authorization) => {
          const { headers, ...probe } = plainProbe(method, fill(path, "42"));
          const { authorization: _valid, ...rest } = headers ?? {};
          return {
            ...probe,
            headers: authorization === undefined ? rest : { ...rest, authorization },
          };
        }),
      ),
    );
  });

  it("when every operation gets odd headers (cookies, request ids, unknown and repeated ones), then both answer alike", async () => {
    const headers: Record<string, string | string[]>[] = [
      { cookie: "a=1; b=2" },
      { cookie: "limit=5" },
      { "x-request-id": "trace-123" },
      { "x-request-id": "not sane, has spaces" },
      { "x-request-id": ["one", "two"] },
      { accept: "text/html" },
      { "x-http-method-override": "DELETE" },
      { "x-forwarded-for": "203.0.113.9" },
      { "content-length": ["0", "0"] },
      { host: "elsewhere.example" },
    ];
    await expectSame(
      operations.flatMap(({ path, method }) =>
        headers.map((extra) => {
          const probe = plainProbe(method, fill(path, "42"));
          return { ...probe, headers: { ...probe.headers, ...extra } };
        }),
      ),
    );
  });

  it("when every operation's path is mistyped (slashes, case, dot segments, encodings), then both answer alike", async () => {
    await expectSame(
      operations.flatMap(({ path, method }) =>
        pathVariants(fill(path, "1")).map((url) => plainProbe(method, url)),
      ),
    );
  });

  it("when odd targets reach the server as sent (fragments, dot segments, encodings), then both answer alike", async () => {
    // inject rebuilds the URL (dropping "#…", resolving "/.."); a socket carries it as sent.
    // A server of the test's own hands each request to the app (the app itself does not
    // listen: its published document would then name a port, and differ between the two).
    const servers = [served, reference].map(({ app }) =>
      createServer((request, response) => app.routing(request, response)),
    );
    const urls = await Promise.all(
      servers.map(
        (server) =>
          new Promise<string>((resolve) =>
            server.listen(0, "127.0.0.1", () => {
              resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
            }),
          ),
      ),
    );
    onTestFinished(() => {
      for (const server of servers) server.close();
    });
    for (const { path, method } of operations) {
      const filled = fill(path, "42");
      const targets = [
        `${filled}#`,
        `${filled}#/x`,
        `${filled}#frag`,
        `${filled}?limit=1#f`,
        `${filled}/.`,
        `${filled}/..`,
        `/.${filled}`,
        `${filled}/%2e%2e`,
      ];
      for (const target of targets) {
        const request = `${method.toUpperCase()} ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: ${VALID}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
        const [mine, theirs] = await Promise.all(urls.map((url) => rawRequest(url, [request])));
        expect(
          { status: mine?.status, body: mine?.body },
          `${method.toUpperCase()} ${target}`,
        ).toEqual({ status: theirs?.status, body: theirs?.body });
      }
    }
  });

  it("when every operation gets query strings, then both answer alike", async () => {
    await expectSame(
      operations.flatMap(({ path, method }) =>
        QUERIES.map((query) => plainProbe(method, `${fill(path, "42")}${query}`)),
      ),
    );
  });

  it("when every operation gets bodies: on GET and DELETE, of bad content types, empty, oversized, then both answer alike", async () => {
    await expectSame(
      operations.flatMap(({ path, method }) =>
        BODIES.map(({ headers, payload }) => ({
          method,
          url: fill(path, "42"),
          headers: { authorization: VALID, ...headers },
          ...(payload === undefined ? {} : { payload }),
        })),
      ),
    );
  });

  it("when paths outside the document and CORS requests are sent, then both answer alike", async () => {
    const elsewhere = [
      "/",
      "/nope",
      "/plants/1/extra",
      "/docs/",
      "//plants",
      "/%",
      "/plants%",
      "*",
    ];
    const cors = paths.flatMap((path) =>
      [ALLOWED_ORIGIN, "https://elsewhere.example"].flatMap((origin) => [
        {
          method: "OPTIONS",
          url: fill(path, "1"),
          headers: { origin, "access-control-request-method": "GET" },
        },
        { ...plainProbe("GET", fill(path, "1")), headers: { authorization: VALID, origin } },
      ]),
    );
    await expectSame([
      ...elsewhere.flatMap((url) => ["GET", "POST", "OPTIONS"].map((m) => plainProbe(m, url))),
      ...cors,
    ]);
  });

  it("when an address goes over the limit of rejected credentials, then both refuse it alike on every operation", async () => {
    const remoteAddress = "192.0.2.66";
    const guesses = Array.from({ length: AUTH_FAILURE_LIMIT + 2 }, (_, i) => ({
      ...plainProbe("GET", "/plants/1", { authorization: `Bearer guess-${i}-0123456789abcdef` }),
      remoteAddress,
    }));
    const afterwards = operations.flatMap(({ path, method }) =>
      [VALID, "Bearer yet-another-guess-0123456789"].map((authorization) => ({
        ...plainProbe(method, fill(path, "42"), { authorization }),
        remoteAddress,
      })),
    );
    await expectSame([...guesses, ...afterwards]);
  });

  for (const seed of SEEDS) {
    describe(`fuzzing (seed ${seed})`, () => {
      const post = (body: string, headers: Record<string, string> = {}): Probe => ({
        method: "POST",
        url: "/plants",
        headers: { authorization: VALID, ...JSON_BODY, ...headers },
        payload: body,
      });

      it("when arbitrary JSON values are posted, then both answer alike", async () => {
        await fc.assert(
          fc.asyncProperty(jsonText, (body) => same(post(body))),
          runs(seed, 50),
        );
      });

      it("when near-miss NewPlants are posted, then both answer alike", async () => {
        await fc.assert(
          fc.asyncProperty(nearMissPlant, (body) => same(post(body))),
          runs(seed, 60),
        );
      });

      it("when odd headers and content types are sent, then both answer alike", async () => {
        await fc.assert(
          fc.asyncProperty(oddHeaders, nearMissPlant, (headers, body) => same(post(body, headers))),
          runs(seed, 60),
        );
      });

      it("when any text is an id in a path, or the after or limit of a page, then both answer alike", async () => {
        await fc.assert(
          fc.asyncProperty(idText, fc.boolean(), async (text, encode) => {
            const id = encode ? encodeURIComponent(text) : text.replace(/[^\x21-\x7e]/g, "");
            for (const url of [`/plants/${id}`, `/plants?after=${id}`, `/plants?limit=${id}`]) {
              await same(plainProbe("GET", url));
            }
            await same(plainProbe("DELETE", `/plants/${id}`));
          }),
          runs(seed, 40),
        );
      });

      it("when random creates, reads, deletes and pages run, then both answer alike", async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(step, { maxLength: 30 }), async (steps) => {
            for (const s of steps) {
              const { method, url, body } = stepRequest(s);
              await same({
                ...plainProbe(method, url),
                ...(body === undefined ? {} : { payload: body }),
              });
            }
          }),
          runs(seed, 12),
        );
      });

      it("when random requests go to any path of the document, then both answer alike", async () => {
        const query = fc
          .array(fc.tuple(fc.constantFrom("limit", "after", "x", "__proto__"), idText), {
            maxLength: 3,
          })
          .map((pairs) =>
            pairs.length === 0
              ? ""
              : `?${pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&")}`,
          );
        const request = fc.record({
          method: fc.constantFrom(...METHODS),
          path: fc.constantFrom(...paths),
          segment: fc.oneof(idText.map(encodeURIComponent), fc.constantFrom(...SEGMENTS)),
          query,
          headers: oddHeaders,
          body: fc.option(fc.oneof(nearMissPlant, jsonText, printable), { nil: undefined }),
        });
        await fc.assert(
          fc.asyncProperty(request, (r) =>
            same({
              method: r.method,
              url: `${fill(r.path, r.segment)}${r.query}`,
              headers: r.headers,
              ...(r.body === undefined ? {} : { payload: r.body }),
            }),
          ),
          runs(seed, 80),
        );
      });
    });
  }

  it("when the run is over, then both list the same plants and counted the same requests", async () => {
    let url: string | undefined = "/plants?limit=100";
    while (url !== undefined) {
      const { difference, answer } = await both(plainProbe("GET", url));
      expect(difference).toBeUndefined();
      const link = String(answer.res.headers.link ?? "");
      url = /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
    }
    await expectSame([plainProbe("GET", "/metrics")]);
  });
});
