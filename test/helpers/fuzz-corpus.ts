// The fuzz corpus (fast-check arbitraries) shared by test/spec/fuzz.test.ts, which checks every
// answer against the YAML and a model, and test/spec/differential.test.ts, which sends the same
// requests to the app with and without its per-operation shortcuts. Seeds: a fixed one plus
// random ones, printed for replay (FUZZ_SEEDS=1,2,3 npx vitest run <file>).
import fc from "fast-check";
import { TOKEN } from "./app.ts";

const FIXED_SEED = 20_260_107;

/** FUZZ_SEEDS when set; else the fixed seed and `randomCount` random ones. Printed for replay. */
export function fuzzSeeds(randomCount: number): readonly number[] {
  const given = process.env["FUZZ_SEEDS"];
  const seeds =
    given !== undefined
      ? given.split(",").map((seed) => Number(seed.trim()))
      : [FIXED_SEED, ...Array.from({ length: randomCount }, randomSeed)];
  process.stdout.write(`fuzz seeds: ${seeds.join(",")} (replay: FUZZ_SEEDS=${seeds.join(",")})\n`);
  return seeds;
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

export const INT64_MAX = 2n ** 63n - 1n;
export const INT64_MIN = -(2n ** 63n);

// ---- POST /plants: bodies and headers ----

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
export const nearMissPlant = fc
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

/** Any JSON value as text (`null` for what JSON.stringify cannot write). */
export const jsonText = fc.jsonValue().map((value) => JSON.stringify(value) ?? "null");

export const printable = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);

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

export const oddHeaders = fc.record(
  {
    "content-type": contentType,
    authorization,
    "content-encoding": fc.constantFrom("identity", "gzip", "br", ""),
    "x-request-id": printable,
    accept: printable,
  },
  { requiredKeys: ["content-type"] },
);

// ---- parameters: ids in paths and queries, and runs of operations ----

/** Text for an id in a path or a query: near misses, bounds, and anything at all. */
export const idText = fc.oneof(
  fc.bigInt({ min: INT64_MIN - 10n, max: INT64_MAX + 10n }).map(String),
  fc.constantFrom("1e2", "0x10", "+1", "01", "-0", "1.0", " 1", "1 ", "abc", "", "-", "٣", "１"),
  fc.string({ maxLength: 12 }),
);

export type Step =
  | { kind: "create"; id: bigint; name: string }
  | { kind: "get" | "delete"; id: bigint }
  | { kind: "list"; after: bigint | undefined; limit: number };

/** The smallest and largest id a Step names. */
export const STEP_IDS = { min: -3n, max: 12n } as const;

// Few ids, so that creates, deletes and reads meet the same plants often.
const smallId = fc.bigInt(STEP_IDS);
export const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), id: smallId, name: fc.constantFrom("a", "b") }),
  fc.record({ kind: fc.constantFrom("get" as const, "delete" as const), id: smallId }),
  fc.record({
    kind: fc.constant("list" as const),
    after: fc.option(smallId, { nil: undefined }),
    limit: fc.integer({ min: 1, max: 6 }),
  }),
);

/** A step's request: method, target and (for a create) the body, a NewPlant as JSON text. */
export function stepRequest(s: Step): {
  method: "GET" | "POST" | "DELETE";
  url: string;
  body?: string;
} {
  switch (s.kind) {
    case "create":
      return { method: "POST", url: "/plants", body: `{"id":${s.id},"name":"${s.name}"}` };
    case "get":
      return { method: "GET", url: `/plants/${s.id}` };
    case "delete":
      return { method: "DELETE", url: `/plants/${s.id}` };
    case "list":
      return {
        method: "GET",
        url: `/plants?limit=${s.limit}${s.after === undefined ? "" : `&after=${s.after}`}`,
      };
  }
}
