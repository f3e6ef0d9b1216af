// Recorded answers: every probe below is sent to the app on a fresh SQLite store, in order, and
// each answer (status, headers, body bytes) must equal the one recorded in
// test/spec/recorded-answers.jsonl, one line
// per answer. The probes cover every path and method of the document (read
// from it) with odd paths, tokens, queries, headers and bodies, then a fixed sample of the fuzz
// corpus (test/helpers/fuzz-corpus.ts). A deliberate change of behaviour is recorded anew with
// `RECORD_ANSWERS=1 npx vitest run test/spec/recorded-answers.test.ts`, and the diff of the file
// is the review of what changed.
//
// Each line carries its probe's key (what it sends), and the probes the recording has are sent
// first, in its order: so an operation added to the document leaves every recorded answer as it
// was, and its own probes, sent after them, fail the run until a recording adds them at the end
// of the file. An answer the document does not describe fails it, recording or not; and under
// CI (`CI` set) a recording is refused, so that no run there can rewrite what it checks.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { generateToken, hashToken, newTokenId } from "../../src/auth/managed-token.ts";
import { HTTP_METHODS, loadDocument } from "../../src/openapi/document.ts";
import { METRICS_TEXT_MS } from "../../src/ops/metrics.ts";
import type { NewToken } from "../../src/store/tokens.ts";
import {
  createTestApp,
  OTHER_TOKEN,
  type TestApp,
  type TestAppOptions,
  TOKEN,
} from "../helpers/app.ts";
import {
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

const RECORDING = new URL("./recorded-answers.jsonl", import.meta.url);
const RECORD = process.env["RECORD_ANSWERS"] === "1";
const UNDER_CI = !["", "0", "false"].includes(process.env["CI"] ?? "");
const HOW_TO_RECORD =
  "record with `RECORD_ANSWERS=1 npx vitest run test/spec/recorded-answers.test.ts` and review the diff of test/spec/recorded-answers.jsonl";
const SEED = 20_260_107;

const ALLOWED_ORIGIN = "https://allowed.example";
const AUTH_FAILURE_LIMIT = 10;
// The rate limits stay on, so their counting and RateLimit fields are recorded too; the
// per-caller limit is high enough for the run never to reach it. CORS for one origin.
const APP_OPTIONS: TestAppOptions = {
  ops: {
    authFailureLimit: AUTH_FAILURE_LIMIT,
    tokenRateLimit: 1_000_000,
    corsOrigins: [ALLOWED_ORIGIN],
  },
};
// A frozen clock: rate-limit windows and token expiry give the same answers on every run.
const NOW = new Date("2026-01-07T12:00:00Z");

interface Probe {
  method: string;
  url: string;
  headers?: Record<string, string | string[]>;
  payload?: string;
  remoteAddress?: string;
  /** Sent over a real socket as written (inject rebuilds the target). */
  raw?: boolean;
}

interface Recorded {
  what: string;
  /** What the probe sends (probeKeys), to find its answer whatever else is probed. */
  key: string;
  /** Why test/helpers/contract.ts finds the answer undocumented, if it does (a failure). */
  undocumented?: string;
  status: number;
  headers: Record<string, unknown>;
  body?: string;
  /** For a body over BODY_KEPT bytes: its SHA-256 and length instead. */
  bodySha256?: string;
  bodyLength?: number;
}

const BODY_KEPT = 2048;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// ---- what the probes are made of ----

const document = loadDocument();
const paths = Object.keys(document.paths ?? {});
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  HTTP_METHODS.filter((method) => (item as Record<string, unknown> | undefined)?.[method]).map(
    (method) => ({ path, method: method.toUpperCase() }),
  ),
);
// A fixed order (the fuzz sample below picks from it by index), then any other method the
// document uses.
const METHODS = [
  ...new Set([
    ...["GET", "POST", "DELETE", "HEAD", "PUT", "OPTIONS", "PATCH", "TRACE", "QUERY", "PURGE"],
    ...operations.map((operation) => operation.method),
  ]),
];
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
  "1".repeat(101),
  "a".repeat(101),
];
const fill = (path: string, segment: string): string => path.replace(/\{[^{}/]+\}/g, segment);

const VALID = `Bearer ${TOKEN}`;
const JSON_BODY = { "content-type": "application/json" } as const;
const NEW_PLANT = '{"id":77,"name":"Fern","tag":"green"}';
const hasBody = (method: string): boolean => ["POST", "PUT", "PATCH", "QUERY"].includes(method);

function plainProbe(method: string, url: string, headers: Record<string, string> = {}): Probe {
  return {
    method,
    url,
    headers: { authorization: VALID, ...(hasBody(method) ? JSON_BODY : {}), ...headers },
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

const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns: number, seed = SEED): T[] =>
  fc.sample(arbitrary, { seed, numRuns });

/** A seed of the path's own: its random probes stay the same when other paths are added. */
const seedOf = (path: string): number =>
  createHash("sha256").update(`${SEED} ${path}`).digest().readUInt32BE(0) & 0x7fffffff;
/** Random requests per path of the document. */
const RANDOM_PER_PATH = 6;

/** Every probe, in the order sent; `credentials` are the Authorization headers by kind. */
function probes(credentials: Record<string, string | string[] | undefined>): Probe[] {
  const all: Probe[] = [];
  // Plants for the reads to find.
  for (const id of ["1", "42", "-5"]) {
    all.push({ ...plainProbe("POST", "/plants"), payload: `{"id":${id},"name":"plant ${id}"}` });
  }
  // Every method on every path.
  for (const path of paths) for (const m of METHODS) all.push(plainProbe(m, fill(path, "1")));
  // Every kind of path parameter.
  for (const { path, method } of operations.filter(({ path }) => fill(path, "") !== path)) {
    for (const segment of SEGMENTS) all.push(plainProbe(method, fill(path, segment)));
  }
  // Missing, wrong and badly scoped tokens.
  for (const { path, method } of operations) {
    for (const authorization of Object.values(credentials)) {
      const { headers, ...probe } = plainProbe(method, fill(path, "42"));
      const { authorization: _valid, ...rest } = headers ?? {};
      all.push({
        ...probe,
        headers: authorization === undefined ? rest : { ...rest, authorization },
      });
    }
  }
  // Odd headers.
  const extras: Record<string, string | string[]>[] = [
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
  for (const { path, method } of operations) {
    for (const extra of extras) {
      const probe = plainProbe(method, fill(path, "42"));
      all.push({ ...probe, headers: { ...probe.headers, ...extra } });
    }
  }
  // Mistyped paths.
  for (const { path, method } of operations) {
    for (const url of pathVariants(fill(path, "1"))) all.push(plainProbe(method, url));
  }
  // Odd targets as sent on a socket.
  for (const { path, method } of operations) {
    const filled = fill(path, "42");
    for (const target of [
      `${filled}#`,
      `${filled}#/x`,
      `${filled}#frag`,
      `${filled}?limit=1#f`,
      `${filled}/.`,
      `${filled}/..`,
      `/.${filled}`,
      `${filled}/%2e%2e`,
    ]) {
      all.push({ method, url: target, raw: true });
    }
  }
  // Queries.
  for (const { path, method } of operations) {
    for (const query of QUERIES) all.push(plainProbe(method, `${fill(path, "42")}${query}`));
  }
  // Bodies on every operation.
  for (const { path, method } of operations) {
    for (const { headers, payload } of BODIES) {
      all.push({
        method,
        url: fill(path, "42"),
        headers: { authorization: VALID, ...headers },
        ...(payload === undefined ? {} : { payload }),
      });
    }
  }
  // Paths outside the document, and CORS.
  for (const url of [
    "/",
    "/nope",
    "/plants/1/extra",
    "/docs/",
    "//plants",
    "/%",
    "/plants%",
    "*",
  ]) {
    for (const m of ["GET", "POST", "OPTIONS"]) all.push(plainProbe(m, url));
  }
  for (const path of paths) {
    for (const origin of [ALLOWED_ORIGIN, "https://elsewhere.example"]) {
      all.push({
        method: "OPTIONS",
        url: fill(path, "1"),
        headers: { origin, "access-control-request-method": "GET" },
      });
      all.push({
        ...plainProbe("GET", fill(path, "1")),
        headers: { authorization: VALID, origin },
      });
    }
  }
  // One address over the limit of rejected credentials.
  const remoteAddress = "192.0.2.66";
  for (let i = 0; i < AUTH_FAILURE_LIMIT + 2; i++) {
    all.push({
      ...plainProbe("GET", "/plants/1", { authorization: `Bearer guess-${i}-0123456789abcdef` }),
      remoteAddress,
    });
  }
  for (const { path, method } of operations) {
    for (const authorization of [VALID, "Bearer yet-another-guess-0123456789"]) {
      all.push({ ...plainProbe(method, fill(path, "42"), { authorization }), remoteAddress });
    }
  }
  // A fixed sample of the fuzz corpus.
  const post = (body: string, headers: Record<string, string> = {}): Probe => ({
    method: "POST",
    url: "/plants",
    headers: { authorization: VALID, ...JSON_BODY, ...headers },
    payload: body,
  });
  for (const body of sample(jsonText, 50)) all.push(post(body));
  for (const body of sample(nearMissPlant, 60)) all.push(post(body));
  for (const [headers, body] of sample(fc.tuple(oddHeaders, nearMissPlant), 60)) {
    all.push(post(body, headers));
  }
  for (const [text, encode] of sample(fc.tuple(idText, fc.boolean()), 40)) {
    const id = encode ? encodeURIComponent(text) : text.replace(/[^\x21-\x7e]/g, "");
    for (const url of [`/plants/${id}`, `/plants?after=${id}`, `/plants?limit=${id}`]) {
      all.push(plainProbe("GET", url));
    }
    all.push(plainProbe("DELETE", `/plants/${id}`));
  }
  for (const steps of sample(fc.array(step, { maxLength: 30 }), 12)) {
    for (const s of steps) {
      const { method, url, body } = stepRequest(s);
      all.push({ ...plainProbe(method, url), ...(body === undefined ? {} : { payload: body }) });
    }
  }
  const query = fc
    .array(fc.tuple(fc.constantFrom("limit", "after", "x", "__proto__"), idText), { maxLength: 3 })
    .map((pairs) =>
      pairs.length === 0
        ? ""
        : `?${pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&")}`,
    );
  const request = fc.record({
    method: fc.constantFrom(...METHODS),
    segment: fc.oneof(idText.map(encodeURIComponent), fc.constantFrom(...SEGMENTS)),
    query,
    headers: oddHeaders,
    body: fc.option(fc.oneof(nearMissPlant, jsonText, printable), { nil: undefined }),
  });
  // Each path its own sample: a path added to the document adds its probes and changes none
  // of the others'.
  for (const path of paths) {
    for (const r of sample(request, RANDOM_PER_PATH, seedOf(path))) {
      all.push({
        method: r.method,
        url: `${fill(path, r.segment)}${r.query}`,
        headers: r.headers,
        ...(r.body === undefined ? {} : { payload: r.body }),
      });
    }
  }
  return all;
}

// ---- sending, and what is kept of an answer ----

const DOCUMENT_LISTS = [
  "allow",
  "access-control-allow-methods",
  "access-control-allow-headers",
  "access-control-expose-headers",
];

/** A key per probe: a digest of what it sends, and which of the probes sending that it is. */
function probeKeys(all: readonly Probe[]): string[] {
  const seen = new Map<string, number>();
  return all.map((probe) => {
    const digest = createHash("sha256").update(JSON.stringify(probe)).digest("hex").slice(0, 16);
    const nth = seen.get(digest) ?? 0;
    seen.set(digest, nth + 1);
    return `${digest}#${nth}`;
  });
}

/** The probes in the recording's order, then those it does not have yet, in theirs. */
function inRecordedOrder(
  all: readonly Probe[],
  keys: readonly string[],
  recordedKeys: readonly string[],
): { probe: Probe; key: string }[] {
  const byKey = new Map(all.map((probe, n) => [keys[n] as string, probe]));
  const known = new Set(recordedKeys);
  return [
    ...recordedKeys.flatMap((key) => {
      const probe = byKey.get(key);
      return probe === undefined ? [] : [{ probe, key }];
    }),
    ...all.flatMap((probe, n) =>
      known.has(keys[n] as string) ? [] : [{ probe, key: keys[n] as string }],
    ),
  ];
}

/** A 405's list of the path's methods is the document's, like `Allow`. */
const withoutMethodList = (text: string): string =>
  text.replace(
    / is not allowed on (\S+); use [A-Z, ]+"/,
    ' is not allowed on $1; use <from the document>"',
  );

function recorded(
  what: string,
  key: string,
  status: number,
  rawHeaders: Record<string, unknown>,
  body: Buffer,
  whole: boolean,
): Recorded {
  const { date: _date, ...headers } = rawHeaders;
  if (typeof headers["x-request-id"] === "string" && UUID.test(headers["x-request-id"])) {
    headers["x-request-id"] = "<a fresh UUID>";
  }
  // What lists the document's methods and headers is the document's: an operation added to
  // it changes these, and the routing and CORS suites check them against it.
  for (const name of DOCUMENT_LISTS) {
    if (typeof headers[name] === "string") headers[name] = "<from the document>";
  }
  const raw = body.toString("latin1");
  const text = withoutMethodList(raw);
  if (text !== raw) delete headers["content-length"];
  if (typeof headers["etag"] === "string") {
    // The published document: the document tests check its text, so editing the YAML
    // leaves these answers as recorded.
    headers["etag"] = "<the document's ETag>";
    delete headers["content-length"];
    return { what, key, status, headers };
  }
  if (String(headers["content-type"]).startsWith("text/plain; version=0.0.4")) {
    delete headers["content-length"];
    // The last scrape is kept whole, so that a change in what is counted shows in the diff;
    // others may be a text made up to a second before (src/ops/metrics.ts), so not kept.
    return whole
      ? { what, key, status, headers, body: withoutTimings(text) }
      : { what, key, status, headers };
  }
  if (text.length <= BODY_KEPT) return { what, key, status, headers, body: text };
  const bodySha256 = createHash("sha256").update(text, "latin1").digest("hex");
  return { what, key, status, headers, bodySha256, bodyLength: text.length };
}

// Process-wide series and durations differ from run to run; every plantstore_ count is kept,
// its lines sorted (the order series are listed in is not part of the format).
function withoutTimings(metrics: string): string {
  return metrics
    .split("\n")
    .filter((line) => /^plantstore_/.test(line) && !/^plantstore_\w+_(bucket|sum)\b/.test(line))
    .sort()
    .join("\n");
}

/**
 * What is left of a caller's limit, as what this request used of it: `r=<previous - 1>` where
 * it was counted, `r=<previous>` where not, after that caller's previous answer (the first is
 * kept as it came). Absolute counts would shift every later answer when a probe is added or
 * answered otherwise; these change only where the counting did.
 */
function countedSince(): (probe: Probe, answer: Recorded) => Recorded {
  const left = new Map<string, number>();
  return (probe, answer) => {
    const field = answer.headers["ratelimit"];
    const match = typeof field === "string" ? /^(.*;r=)(\d+)(;.*)$/.exec(field) : null;
    if (match === null) return answer;
    const [, before = "", digits = "", after = ""] = match;
    // A caller is its credentials, however the scheme is spelt or spaced.
    const caller = JSON.stringify(probe.headers?.["authorization"] ?? "")
      .replace(/\s+/g, " ")
      .toLowerCase();
    const previous = left.get(caller);
    const now = Number(digits);
    left.set(caller, now);
    if (previous === undefined) return answer;
    const used = previous - now;
    const said = used === 0 ? "<previous>" : `<previous - ${used}>`;
    return { ...answer, headers: { ...answer.headers, ratelimit: `${before}${said}${after}` } };
  };
}

function describeProbe(probe: Probe, credentials: Record<string, unknown>): string {
  const label = Object.entries(credentials).find(
    ([, value]) => value !== undefined && value === probe.headers?.["authorization"],
  )?.[0];
  const auth = probe.headers?.["authorization"] === undefined ? "no token" : (label ?? "token");
  const body = probe.payload === undefined ? "" : ` body ${probe.payload.length} bytes`;
  return `${probe.method} ${probe.url.slice(0, 120)} (${auth}${body}${probe.raw ? ", raw" : ""})`;
}

// ---- the test ----

describe("the answers to every probe, against those recorded", () => {
  let test: TestApp;
  let credentials: Record<string, string | string[] | undefined> = {};
  let rawBase = "";
  let closeRaw = (): void => undefined;

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    test = await createTestApp(sqliteEngine, undefined, APP_OPTIONS);
    const managed = async (
      name: string,
      record: Partial<Pick<NewToken, "scopes" | "expiresAt">>,
      revoked = false,
    ) => {
      const token = generateToken();
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
      "managed, expired": await managed("expired", { expiresAt: new Date(NOW.getTime() - 1_000) }),
      "managed, revoked": await managed("revoked", {}, true),
      "managed, unknown": `Bearer ${unknown}`,
      "managed, bad checksum": `Bearer ${unknown.slice(0, -1)}${unknown.endsWith("0") ? "1" : "0"}`,
    };
    // Raw targets reach the app through a server of the test's own, as sent (the app does not
    // listen: its published document would then name a port that changes between runs).
    const server = createServer((request, response) => test.app.routing(request, response));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    rawBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeRaw = () => server.close();
  });

  afterAll(async () => {
    closeRaw();
    await test?.close();
    vi.useRealTimers();
  });

  async function answer(
    probe: Probe,
    n: number,
    whole: boolean,
    what: string,
    key: string,
  ): Promise<Recorded> {
    if (probe.raw === true) {
      const request = `${probe.method} ${probe.url} HTTP/1.1\r\nHost: x\r\nAuthorization: ${VALID}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
      const got = await rawRequest(rawBase, [request]);
      const body = withoutMethodList(got?.body ?? "");
      return { what, key, status: got?.status ?? 0, headers: {}, body };
    }
    const options: InjectOptions = {
      method: probe.method as NonNullable<InjectOptions["method"]>,
      url: probe.url,
      headers: probe.headers ?? {},
      remoteAddress: probe.remoteAddress ?? `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      ...(probe.payload === undefined ? {} : { payload: probe.payload }),
    };
    let res: LightMyRequestResponse;
    let undocumented: string | undefined;
    try {
      res = await test.app.inject(options);
    } catch (error) {
      // An answer the document does not describe is kept as it is, with why, and fails the run.
      const { response, message } = error as Error & { response?: LightMyRequestResponse };
      if (response === undefined) throw error;
      res = response;
      undocumented = message;
    }
    const answer = recorded(what, key, res.statusCode, res.headers, res.rawPayload, whole);
    return undocumented === undefined ? answer : { ...answer, undocumented };
  }

  /** A probe as its key sees it: credentials by kind, as managed tokens differ from run to run. */
  const keyed = (probe: Probe): Probe => {
    const authorization = probe.headers?.["authorization"];
    const kind = Object.entries(credentials).find(
      ([, value]) => value !== undefined && value === authorization,
    )?.[0];
    return kind === undefined
      ? probe
      : { ...probe, headers: { ...probe.headers, authorization: kind } };
  };

  it("when every probe is sent in order, then each answer is documented and is the one recorded", async () => {
    if (RECORD && UNDER_CI) {
      expect.fail(
        "RECORD_ANSWERS=1 is refused under CI: a run there checks the recording, never rewrites it",
      );
    }
    const all = [...probes(credentials), plainProbe("GET", "/plants?limit=1000")];
    const scrape = plainProbe("GET", "/metrics");
    all.push(scrape);
    const expected = existsSync(RECORDING)
      ? readFileSync(RECORDING, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as Recorded)
      : [];
    const keys = probeKeys(all.map(keyed));
    const sent = inRecordedOrder(
      all,
      keys,
      expected.map((line) => line.key),
    );
    const answers: Recorded[] = [];
    const counted = countedSince();
    for (const [n, { probe, key }] of sent.entries()) {
      // The scrape made afresh, counting everything before it.
      if (probe === scrape) await new Promise((resolve) => setTimeout(resolve, METRICS_TEXT_MS));
      const one = await answer(probe, n, probe === scrape, describeProbe(probe, credentials), key);
      answers.push(counted(probe, one));
    }
    if (RECORD) {
      writeFileSync(RECORDING, answers.map((one) => `${JSON.stringify(one)}\n`).join(""));
    }
    const undocumented = answers.flatMap((one) =>
      one.undocumented === undefined ? [] : [`${one.what}: ${one.undocumented}`],
    );
    expect(
      undocumented.length,
      `${undocumented.length} answers the document does not describe; the first 5:\n${undocumented.slice(0, 5).join("\n")}`,
    ).toBe(0);
    if (RECORD) return;
    const recordedKeys = new Set(expected.map((line) => line.key));
    const unrecorded = answers.filter((one) => !recordedKeys.has(one.key)).map((one) => one.what);
    expect(
      unrecorded.length,
      `${unrecorded.length} probes have no recorded answer (${HOW_TO_RECORD}); the first 5:\n${unrecorded.slice(0, 5).join("\n")}`,
    ).toBe(0);
    const got = new Map(answers.map((one) => [one.key, one]));
    const differences = expected.flatMap((want, n) => {
      const one = got.get(want.key);
      if (one === undefined) return [`#${n} ${want.what}: no longer sent`];
      return JSON.stringify(one) === JSON.stringify(want)
        ? []
        : [
            `#${n} ${want.what}\n  got:      ${JSON.stringify(one)}\n  recorded: ${JSON.stringify(want)}`,
          ];
    });
    expect(
      differences.length,
      `${differences.length} of ${expected.length} recorded answers differ (a deliberate change: ${HOW_TO_RECORD}); the first 5:\n${differences.slice(0, 5).join("\n")}`,
    ).toBe(0);
    // Thousands of probes in order: minutes when the machine is busy, seconds when quiet.
  }, 300_000);
});
