// Property-based fuzzing (fast-check) through app.inject, whose every answer is checked against
// the YAML (test/helpers/contract.ts). POST /plants: arbitrary JSON, near-miss NewPlants and odd
// headers always get a documented, schema-valid answer, never a 5xx, and the store holds exactly
// what was answered 200. The id in paths and the list's query: any text gets 400 unless it is a
// canonical int64, and random runs of creates, reads, deletes and pages agree with a model. Bounded: a fixed seed plus two random ones, printed for replay
// (FUZZ_SEEDS=1,2,3 npx vitest run test/spec/fuzz.test.ts).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../src/openapi/document.ts";
import { createTestApp, postPlant, type TestApp, TOKEN } from "../helpers/app.ts";

const FIXED_SEED = 20_260_107;
const SEEDS: readonly number[] =
  process.env["FUZZ_SEEDS"] !== undefined
    ? process.env["FUZZ_SEEDS"].split(",").map((seed) => Number(seed.trim()))
    : [FIXED_SEED, randomSeed(), randomSeed()];
process.stdout.write(`fuzz seeds: ${SEEDS.join(",")} (replay: FUZZ_SEEDS=${SEEDS.join(",")})\n`);

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

const documented = new Set(
  Object.keys(
    (loadDocument() as unknown as { paths: Record<string, Record<string, { responses: object }>> })
      .paths["/plants"]?.["post"]?.responses ?? {},
  ).map(Number),
);

// ---- arbitraries ----

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** An id as JSON text, exact: inside, at and just past the int64 bounds, and near-misses. */
const idLiteral = fc.oneof(
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }).map(String),
  fc.constantFrom(
    String(INT64_MAX),
    String(INT64_MIN),
    String(INT64_MAX + 1n),
    String(INT64_MIN - 1n),
    "9007199254740993",
    "0",
    "-0",
    "1.0",
    "1e2",
    "1.5",
    "1e400",
    '"5"',
    "null",
    "true",
    "[]",
    "{}",
  ),
);

/** Strings a client might send: odd Unicode (lone surrogates, NUL, RTL, emoji), or huge. */
const oddString = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom("", "\u0000", "a\u0000b", "\ud800", "x\udfff", "\u202eevil", "🌿", "\uFEFF"),
  fc.nat({ max: 70_000 }).map((n) => "a".repeat(n)),
);

/** A JSON value text for name or tag: usually a string, sometimes the wrong type. */
const fieldLiteral = fc.oneof(
  { weight: 4, arbitrary: oddString.map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
);

/** A near-miss NewPlant as JSON text: fields missing, mistyped, extra, at the bounds. */
const nearMissPlant = fc
  .record(
    {
      id: idLiteral,
      name: fieldLiteral,
      tag: fieldLiteral,
      extra: fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.stringify(v)),
    },
    { requiredKeys: [] },
  )
  .map(
    (fields) =>
      `{${Object.entries(fields)
        .map(([k, v]) => `"${k}":${v}`)
        .join(",")}}`,
  );

const printable = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);

const contentType = fc.oneof(
  fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "Application/JSON; Charset=UTF-8",
    "application/json; charset=latin1",
    "application/json;;",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/merge-patch+json",
    "",
  ),
  printable,
);

// Lower-case "bearer" included: the scheme name is case-insensitive (RFC 9110 §11.1).
const authorization = fc.oneof(
  fc.constantFrom(
    `Bearer ${TOKEN}`,
    `bearer ${TOKEN}`,
    `BEARER  ${TOKEN}`,
    "Bearer",
    "Basic dXNlcjpwdw==",
  ),
  printable,
);

const oddHeaders = fc.record(
  {
    "content-type": contentType,
    authorization,
    "content-encoding": fc.constantFrom("identity", "gzip", "br", ""),
    "x-request-id": printable,
    accept: printable,
  },
  { requiredKeys: ["content-type"] },
);

// ---- the properties ----

describe("fuzzing POST /plants", () => {
  let test: TestApp;
  /** Every id a 200 acknowledged, with the plant the answer named. */
  const acknowledged = new Map<bigint, { name: string; tag?: string }>();
  /** Every id sent, as exact as the literal allows. */
  const sent = new Set<bigint>();

  beforeAll(async () => {
    // The rate limits have suites of their own; here a burst of bad tokens must not turn
    // every later request into a 429.
    test = await createTestApp(undefined, undefined, {
      ops: { authFailureLimit: 0, tokenRateLimit: 0 },
    });
  });
  afterAll(() => test.close());

  async function send(body: string, headers: Record<string, string> = {}): Promise<void> {
    const res = await postPlant(test.app, body, headers);
    // The inject itself has checked the answer against the YAML; say the essentials here too.
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(documented.has(res.statusCode), `${res.statusCode} documented`).toBe(true);
    const id = exactId(body);
    if (id !== undefined) sent.add(id);
    if (res.statusCode === 200) {
      expect(id, `a 200 for ${body.slice(0, 80)} has an integer id`).toBeDefined();
      const plant = res.json() as { name: string; tag?: string };
      const earlier = acknowledged.get(id as bigint);
      if (earlier !== undefined) expect(plant).toEqual(earlier);
      acknowledged.set(id as bigint, plant);
    }
  }

  for (const seed of SEEDS) {
    it(`when arbitrary JSON values are sent (seed ${seed}), then every answer is documented and none is 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (value) => send(JSON.stringify(value) ?? "null")),
        { seed, numRuns: 150 },
      );
    });

    it(`when near-miss NewPlants are sent (seed ${seed}), then every answer is documented and none is 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(nearMissPlant, async (body) => send(body)),
        { seed, numRuns: 250 },
      );
    });

    it(`when odd headers and content types are sent (seed ${seed}), then every answer is documented and none is 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(oddHeaders, nearMissPlant, async (headers, body) => send(body, headers)),
        { seed, numRuns: 150 },
      );
    });
  }

  it("when the fuzzing is over, then the store holds exactly the plants answered 200", async () => {
    expect(acknowledged.size).toBeGreaterThan(0);
    for (const id of [...sent].filter((id) => id >= INT64_MIN && id <= INT64_MAX)) {
      const stored = await test.db.store.get(id);
      expect(stored, `id ${id}`).toEqual(acknowledged.get(id));
    }
  });
});

// ---- parameters: ids in paths and queries, and a model of the store ----

/** Text for an id in a path or a query: near misses, bounds, and anything at all. */
const idText = fc.oneof(
  fc.bigInt({ min: INT64_MIN - 10n, max: INT64_MAX + 10n }).map(String),
  fc.constantFrom("1e2", "0x10", "+1", "01", "-0", "1.0", " 1", "1 ", "abc", "", "-", "٣", "１"),
  fc.string({ maxLength: 12 }),
);

/** Whether the server must take `text` as an id: a canonical decimal within int64. */
function isIdText(text: string): boolean {
  if (!/^-?(0|[1-9][0-9]*)$/.test(text) || text === "-0") return false;
  const value = BigInt(text);
  return value >= INT64_MIN && value <= INT64_MAX;
}

type Step =
  | { kind: "create"; id: bigint; name: string }
  | { kind: "get" | "delete"; id: bigint }
  | { kind: "list"; after: bigint | undefined; limit: number };

// Few ids, so that creates, deletes and reads meet the same plants often.
const smallId = fc.bigInt({ min: -3n, max: 12n });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), id: smallId, name: fc.constantFrom("a", "b") }),
  fc.record({ kind: fc.constantFrom("get" as const, "delete" as const), id: smallId }),
  fc.record({
    kind: fc.constant("list" as const),
    after: fc.option(smallId, { nil: undefined }),
    limit: fc.integer({ min: 1, max: 6 }),
  }),
);

describe("fuzzing ids in paths and queries, and the store against a model", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp(undefined, undefined, {
      ops: { authFailureLimit: 0, tokenRateLimit: 0 },
    });
  });
  afterAll(() => test.close());
  const call = (method: "GET" | "DELETE", url: string) =>
    test.app.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}` } });

  for (const seed of SEEDS) {
    it(`when any text is the id of GET and DELETE /plants/{id} or the after of GET /plants (seed ${seed}), then 400 unless it is a canonical int64`, async () => {
      await fc.assert(
        fc.asyncProperty(idText, async (text) => {
          const encoded = encodeURIComponent(text);
          // A path segment that is empty or a dot segment is another path, not an id.
          const asPath = text !== "" && text !== "." && text !== "..";
          const answers = [
            ...(asPath ? [await call("GET", `/plants/${encoded}`)] : []),
            ...(asPath ? [await call("DELETE", `/plants/${encoded}`)] : []),
            await call("GET", `/plants?after=${encoded}`),
          ];
          for (const res of answers) {
            expect(res.statusCode, `${text}: ${res.body}`).toBeLessThan(500);
            if (isIdText(text)) expect(res.statusCode, text).not.toBe(400);
            else expect(res.statusCode, `${JSON.stringify(text)}: ${res.body}`).toBe(400);
          }
        }),
        { seed, numRuns: 150 },
      );
    });

    it(`when random creates, reads, deletes and pages run (seed ${seed}), then every answer agrees with a model of the store`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 30 }), async (steps) => {
          // Each run starts from an empty range of ids.
          for (let id = -3n; id <= 12n; id++) await call("DELETE", `/plants/${id}`);
          const model = new Map<bigint, string>();
          for (const s of steps) {
            if (s.kind === "create") {
              const res = await postPlant(test.app, `{"id":${s.id},"name":"${s.name}"}`);
              const held = model.get(s.id);
              expect(res.statusCode).toBe(held === undefined || held === s.name ? 200 : 409);
              if (held === undefined) model.set(s.id, s.name);
            } else if (s.kind === "get") {
              const res = await call("GET", `/plants/${s.id}`);
              const held = model.get(s.id);
              if (held === undefined) expect(res.statusCode).toBe(404);
              else expect(res.body).toBe(`{"id":${s.id},"name":"${held}"}`);
            } else if (s.kind === "delete") {
              const res = await call("DELETE", `/plants/${s.id}`);
              expect(res.statusCode).toBe(model.delete(s.id) ? 204 : 404);
            } else if (s.kind === "list") {
              const query = `limit=${s.limit}${s.after === undefined ? "" : `&after=${s.after}`}`;
              const res = await call("GET", `/plants?${query}`);
              const expected = [...model.keys()]
                .filter((id) => id >= -3n && (s.after === undefined || id > s.after))
                .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
                .slice(0, s.limit);
              const page = (res.json() as { id: number }[]).filter((p) => p.id >= -3);
              expect(page.map((p) => BigInt(p.id))).toEqual(expected);
              expect(res.headers.link !== undefined).toBe(
                (res.json() as unknown[]).length === s.limit,
              );
            }
          }
        }),
        { seed, numRuns: 40 },
      );
    });
  }
});

/** The id a body's literal denotes, when it is one the server could take as an integer. */
function exactId(body: string): bigint | undefined {
  const literal = /^\{(?:[^{]*?,)?"id":(-?[0-9][0-9.e+-]*)[,}]/.exec(body)?.[1];
  if (literal === undefined) return undefined;
  if (/^-?\d+$/.test(literal)) return BigInt(literal);
  const special: Record<string, bigint> = { "1.0": 1n, "1e2": 100n };
  return special[literal];
}
