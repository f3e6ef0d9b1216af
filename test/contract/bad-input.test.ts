import { describe, expect, it } from "vitest";
import { AUTH, expectError, JSON_TYPE, postPlant, uniqueId, useTestApp } from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";

describe.each(storeEngines)(
  "bad input is refused with 400 and nothing is stored ($name)",
  (engine) => {
    const app = useTestApp(engine);

    // Each case gets a fresh id through ID; the expected message must name the field and why.
    const cases: [string, string, RegExp][] = [
      ["malformed JSON", '{"id":ID,"name":"x"', /not valid JSON/],
      ["a trailing comma", '{"id":ID,"name":"x",}', /not valid JSON/],
      ["single quotes", "{'id':ID,'name':'x'}", /not valid JSON/],
      ["two JSON values", '{"id":ID,"name":"x"}{}', /not valid JSON/],
      ["NaN", '{"id":NaN,"name":"x"}', /not valid JSON/],
      ["only whitespace", "   ", /not valid JSON/],
      ["JSON null", "null", /must be a JSON object, got null/],
      ["a JSON array", '[{"id":ID,"name":"x"}]', /must be a JSON object, got an array/],
      [
        "a JSON string holding an object",
        '"{\\"id\\":ID,\\"name\\":\\"x\\"}"',
        /must be a JSON object, got a string/,
      ],
      ["a JSON number", "ID", /must be a JSON object, got a number/],
      [
        "an empty object",
        "{}",
        /name is required.*id is required|id is required.*name is required/,
      ],
      ["a missing id", '{"name":"x"}', /^id is required$/],
      ["a missing name", '{"id":ID}', /^name is required$/],
      ["a string id", '{"id":"ID","name":"x"}', /^id must be an integer \(got string\)$/],
      ["a null id", '{"id":null,"name":"x"}', /^id must be an integer \(got null\)$/],
      ["a fractional id", '{"id":1.5,"name":"x"}', /^id must be an integer/],
      [
        "a fraction too small for a double",
        '{"id":1.0000000000000000001,"name":"x"}',
        /^id must be an integer/,
      ],
      ["a boolean id", '{"id":true,"name":"x"}', /^id must be an integer \(got boolean\)$/],
      ["an array id", '{"id":[ID],"name":"x"}', /^id must be an integer \(got array\)$/],
      ["a null name", '{"id":ID,"name":null}', /^name must be a string \(got null\)$/],
      ["a numeric name", '{"id":ID,"name":5}', /^name must be a string \(got number\)$/],
      [
        "an object name",
        '{"id":ID,"name":{"first":"x"}}',
        /^name must be a string \(got object\)$/,
      ],
      ["a null tag", '{"id":ID,"name":"x","tag":null}', /^tag must be a string \(got null\)$/],
      ["a numeric tag", '{"id":ID,"name":"x","tag":1}', /^tag must be a string \(got number\)$/],
      [
        "a lone high surrogate in the name",
        '{"id":ID,"name":"bad \\ud800 name"}',
        /^name contains an unpaired UTF-16 surrogate/,
      ],
      [
        "a lone low surrogate in the tag",
        '{"id":ID,"name":"x","tag":"\\udc00"}',
        /^tag contains an unpaired UTF-16 surrogate/,
      ],
      [
        "a NUL character in the name",
        '{"id":ID,"name":"a\\u0000b"}',
        /^name contains a NUL character \(\\u0000\), which cannot be stored exactly$/,
      ],
      ["a NUL character in the tag", '{"id":ID,"name":"x","tag":"\\u0000"}', /^tag contains a NUL/],
      ["fields only under __proto__", '{"__proto__":{"id":ID,"name":"x"}}', /id is required/],
      [
        "fields only under constructor.prototype",
        '{"constructor":{"prototype":{"id":ID,"name":"x"}}}',
        /id is required/,
      ],
      [
        "an array nested 30000 deep",
        `${"[".repeat(30_000)}${"]".repeat(30_000)}`,
        /must be a JSON object, got an array/,
      ],
      [
        "a body nested 20000 deep",
        `{"id":ID,"name":${"[".repeat(20_000)}${"]".repeat(20_000)}}`,
        /^name must be a string/,
      ],
    ];

    it.each(cases)(
      "when the body has %s, then 400 says which field and why",
      async (_what, template, message) => {
        const id = uniqueId();
        const res = await postPlant(app().app, template.replaceAll("ID", String(id)));
        expectError(res, 400, message);
        expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
      },
    );

    it("when the body is not valid UTF-8, then 400 and nothing is stored", async () => {
      const id = uniqueId();
      const payload = Buffer.concat([
        Buffer.from(`{"id":${id},"name":"`),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]);
      const bad = await app().app.inject({
        method: "POST",
        url: "/plants",
        headers: { ...AUTH, ...JSON_TYPE },
        payload,
      });
      expectError(bad, 400, /not valid UTF-8/);
      expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
    });

    it.each([
      ["dryRun=true", "dryRun"],
      ["__proto__=1", "__proto__"],
      ["toString=1", "toString"],
      ["constructor[prototype][x]=1", "constructor[prototype][x]"],
      ["a=1&a=2", "a"],
    ])("when the query is %s, then 400 names %s and nothing is stored", async (query, name) => {
      const id = uniqueId();
      const res = await app().app.inject({
        method: "POST",
        url: `/plants?${query}`,
        headers: { ...AUTH, ...JSON_TYPE },
        payload: `{"id":${id},"name":"x"}`,
      });
      const body = expectError(res, 400);
      expect(body.message).toContain(`query parameter "${name}"`);
      expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
    });
  },
);
