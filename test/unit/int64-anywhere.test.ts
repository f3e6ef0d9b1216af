// Exact int64s on a document of its own, not this API's: wherever a schema puts
// them (nested, in arrays, as free-form members, in headers and array query parameters, as
// defaults) are read exactly, whatever they are called, on the server and in the client.
import { describe, expect, it } from "vitest";
import { fromJson } from "../../src/client/exact-json.ts";
import { parameterReader } from "../../src/http/parameters.ts";
import { EVERY_ITEM, int64Locations } from "../../src/text/int64-locations.ts";
import { interpretBody } from "../helpers/body.ts";

const INT64 = { type: "integer", format: "int64" };
const schema = {
  type: "object",
  properties: {
    serial: INT64,
    count: { type: "integer", format: "int32" },
    batches: { type: "array", items: { allOf: [{ properties: { code: INT64 } }] } },
    owner: { type: "object", properties: { account: INT64 } },
  },
  additionalProperties: INT64,
};

describe("int64 locations from any schema", () => {
  it("when a schema holds int64s nested, in arrays and as free-form members, then each location is found and nothing else", () => {
    expect(int64Locations(schema)).toEqual([
      ["serial"],
      ["batches", EVERY_ITEM, "code"],
      ["owner", "account"],
      [{ otherThan: ["serial", "count", "batches", "owner"] }],
    ]);
  });

  it("when a body has int64s past 2^53 at each location, then the typed body holds them exactly and nothing else changes", () => {
    const text =
      '{"serial":9223372036854775807,"count":7,"batches":[{"code":9007199254740993},{"code":-9223372036854775808}],"owner":{"account":12345678901234567},"extra":9007199254740995}';
    const body = interpretBody({ "content-type": "application/json" }, Buffer.from(text), {
      int64: int64Locations(schema),
      described: "a JSON object",
      required: true,
    });
    expect(body.ok && body.typed).toEqual({
      serial: 9223372036854775807n,
      count: 7,
      batches: [{ code: 9007199254740993n }, { code: -9223372036854775808n }],
      owner: { account: 12345678901234567n },
      extra: 9007199254740995n,
    });
  });

  it("when an int64 in an array is out of range, then the value given to the validator is outside the int64 range too", () => {
    const body = interpretBody(
      { "content-type": "application/json" },
      Buffer.from('{"batches":[{"code":1},{"code":9223372036854775808}]}'),
      { int64: int64Locations(schema), described: "a JSON object", required: true },
    );
    const forValidation = body.ok
      ? (body.forValidation as { batches: { code: number }[] })
      : undefined;
    expect(forValidation?.batches[1]?.code).toBeGreaterThanOrEqual(2 ** 63);
  });

  it("when a body holds thousands of int64s in an array, then every one is read exactly, and the rest of the body is untouched", () => {
    const codes = Array.from({ length: 5000 }, (_, i) =>
      i % 2 === 0 ? BigInt(i) : 2n ** 53n + BigInt(i),
    );
    const text = `{"count":1,"batches":[${codes.map((code) => `{"code":${code}}`).join(",")}]}`;
    expect(text.length).toBeLessThan(64 * 1024 * 2);
    const body = interpretBody({ "content-type": "application/json" }, Buffer.from(text), {
      int64: int64Locations(schema),
      described: "a JSON object",
      required: true,
    });
    if (!body.ok) throw new Error(body.problem.message);
    const typed = body.typed as { count: number; batches: { code: bigint }[] };
    expect(typed.count).toBe(1);
    expect(typed.batches.map((batch) => batch.code)).toEqual(codes);
    const checked = body.forValidation as { batches: { code: number }[] };
    expect(checked.batches[1]?.code).toBe(Number(codes[1]));
  });

  it("when the client parses an answer with int64s at those locations, then exactly those become bigints", () => {
    // As generated/plants.ts tabulates them for the client.
    const locations = int64Locations(schema).map((l) =>
      l.map((step) => (step === EVERY_ITEM ? "[*]" : step)),
    );
    expect(
      fromJson(
        '{"serial":9223372036854775807,"count":7,"batches":[{"code":9007199254740993}],"owner":{"account":1},"extra":9007199254740995}',
        locations,
      ),
    ).toEqual({
      serial: 9223372036854775807n,
      count: 7,
      batches: [{ code: 9007199254740993n }],
      owner: { account: 1n },
      extra: 9007199254740995n,
    });
  });
});

describe("int64s that may be null", () => {
  it("when a schema types an int64 with a type list that allows null, then it is read exactly, and null stays null", () => {
    const nullable = {
      type: "object",
      properties: { owner: { type: ["integer", "null"], format: "int64" } },
    };
    const shape = { int64: int64Locations(nullable), described: "a JSON object", required: true };
    const read = (text: string) => {
      const body = interpretBody({ "content-type": "application/json" }, Buffer.from(text), shape);
      return body.ok ? body.typed : body.problem;
    };
    expect(shape.int64).toEqual([["owner"]]);
    expect(read('{"owner":9007199254740993}')).toEqual({ owner: 9007199254740993n });
    expect(read('{"owner":null}')).toEqual({ owner: null });
  });
});

describe("parameters of any operation", () => {
  const read = parameterReader("someOperation", [
    { name: "X-Trace", in: "header", schema: INT64 },
    { name: "ids", in: "query", schema: { type: "array", items: INT64 } },
    { name: "page", in: "query", schema: { type: "integer", default: 5 } },
    { name: "since", in: "query", schema: { ...INT64, default: 7 } },
    { name: "verbose", in: "query", schema: { type: "boolean" } },
  ]);
  const raw = (query: Record<string, unknown>, headers: Record<string, unknown> = {}) =>
    read({ target: "/", params: {}, query, headers });

  it("when int64s come in a header and a repeated query parameter, then each is an exact bigint, and defaults fill the rest", () => {
    expect(
      raw(
        { ids: ["1", "9007199254740993"], verbose: "true" },
        { "x-trace": "-9223372036854775808" },
      ),
    ).toEqual({
      ok: true,
      values: {
        path: {},
        header: { "X-Trace": -9223372036854775808n },
        query: { ids: [1n, 9007199254740993n], page: 5, since: 7n, verbose: true },
      },
    });
  });

  it.each([
    [{ ids: ["1", "01"] }, {}, /^query parameter ids must be a decimal integer/],
    [{ page: "1e2" }, {}, /^query parameter page must be a decimal integer, got "1e2"$/],
    [{ page: ["1", "2"] }, {}, /^query parameter page is given more than once$/],
    [{ verbose: "yes" }, {}, /^query parameter verbose must be true or false/],
    [{}, { "x-trace": "0x10" }, /^header parameter X-Trace must be a decimal integer/],
    [
      { other: "1" },
      {},
      /^query parameter "other" is not accepted: this operation takes ids, page, since, verbose$/,
    ],
  ])(
    "when the query is %j and the headers %j, then it is refused with a message naming the parameter",
    (query, headers, message) => {
      const result = raw(query, headers);
      expect(result.ok).toBe(false);
      expect(result.ok ? "" : result.message).toMatch(message);
    },
  );
});
