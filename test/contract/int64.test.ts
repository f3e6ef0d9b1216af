import { describe, expect, it } from "vitest";
import { INT64_MAX, INT64_MIN } from "../../src/text/int64.ts";
import {
  createTestApp,
  expectError,
  plantJson,
  postPlant,
  uniqueId,
  useTestApp,
} from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";

const TWO_53 = 2n ** 53n;

describe.each(storeEngines)("ids are exact int64 ($name)", (engine) => {
  const app = useTestApp(engine);

  it.each([
    ["0", 0n],
    ["-1", -1n],
    ["2^53-1", TWO_53 - 1n],
    ["2^53", TWO_53],
    ["2^53+1", TWO_53 + 1n],
    ["-(2^53+1)", -(TWO_53 + 1n)],
    ["2^63-1", INT64_MAX],
    ["-2^63", INT64_MIN],
    ["2^63-2", INT64_MAX - 1n],
    ["-2^63+1", INT64_MIN + 1n],
  ])("when the id is %s, then it is stored under exactly that value", async (_what, id) => {
    const res = await postPlant(app().app, plantJson(id, `plant ${id}`));
    expect(res.statusCode).toBe(200);
    expect(await app().db.store.resources.plants.get(id)).toStrictEqual({
      id,
      name: `plant ${id}`,
    });
  });

  it("when ids differ only past 2^53, then they are different plants", async () => {
    // 9007199254740993 and ...992 are the same double; they must not collide.
    const a = TWO_53 + 1000n;
    const b = a + 1n;
    expect((await postPlant(app().app, plantJson(a, "a"))).statusCode).toBe(200);
    expect((await postPlant(app().app, plantJson(b, "b"))).statusCode).toBe(200);
    expect(await app().db.store.resources.plants.get(a)).toStrictEqual({ id: a, name: "a" });
    expect(await app().db.store.resources.plants.get(b)).toStrictEqual({ id: b, name: "b" });
  });

  it.each([
    ["2^63", INT64_MAX + 1n],
    ["-2^63-1", INT64_MIN - 1n],
    ["2^64", 2n ** 64n],
    ["10^30", 10n ** 30n],
  ])(
    "when the id is %s, one past int64 or more, then 400 names the range and nothing is stored",
    async (_what, id) => {
      const name = `too big ${id}`;
      const res = await postPlant(app().app, plantJson(id, name));
      expectError(
        res,
        400,
        /^id must be an integer from -9223372036854775808 to 9223372036854775807$/,
      );
      // Neither a wrapped nor a clamped id may have been stored instead.
      for (const near of [BigInt.asIntN(64, id), INT64_MAX, INT64_MIN]) {
        expect(await app().db.store.resources.plants.get(near)).not.toStrictEqual({ name });
      }
    },
  );

  // Each literal spells a fresh id u (past 2^53, last digits non-zero), so every case
  // stores its own plant.
  const digits = (value: bigint, width: number): string => String(value).padStart(width, "0");
  it.each([
    ["an integer with .0", (u: bigint) => `${u}.0`],
    ["a fraction with an exponent", (u: bigint) => `${u / 100n}.${digits(u % 100n, 2)}e2`],
    ["a scaled-up integer with a negative exponent", (u: bigint) => `${u}0e-1`],
    ["a padded mantissa", (u: bigint) => `${u}.000e0`],
    ["an upper-case exponent", (u: bigint) => `${u / 1000n}.${digits(u % 1000n, 3)}E+3`],
  ])("when the id is written as %s, then it is that integer exactly", async (_what, spell) => {
    const u = uniqueId() * 1000n + 7n;
    const literal = spell(u);
    const name = `literal ${literal}`;
    const res = await postPlant(app().app, `{"id":${literal},"name":"${name}"}`);
    expect(res.statusCode).toBe(200);
    expect(await app().db.store.resources.plants.get(u)).toStrictEqual({ id: u, name });
  });

  it.each([
    ["9.223372036854775807e18", INT64_MAX],
    ["-9223372036854775808.0", INT64_MIN],
    ["-0", 0n],
    ["0e5", 0n],
  ])("when the id is written %s, then it is %s (on a store of its own)", async (literal, id) => {
    const own = await createTestApp(engine);
    try {
      const res = await postPlant(own.app, `{"id":${literal},"name":"only"}`);
      expect(res.statusCode).toBe(200);
      expect(await own.db.store.resources.plants.get(id)).toStrictEqual({ id, name: "only" });
    } finally {
      await own.close();
    }
  });

  it.each(["1e400", "-1e400", "1e-400"])(
    "when the id is %s, then 400 and no 5xx",
    async (literal) => {
      expectError(
        await postPlant(app().app, `{"id":${literal},"name":"x"}`),
        400,
        /^id must be an integer/,
      );
    },
  );

  it("when the id key repeats, then the last one counts, as JSON.parse decides", async () => {
    const res = await postPlant(app().app, `{"id":1,"name":"dup","id":${INT64_MAX - 7n}}`);
    expect(res.statusCode).toBe(200);
    expect(await app().db.store.resources.plants.get(INT64_MAX - 7n)).toStrictEqual({
      id: INT64_MAX - 7n,
      name: "dup",
    });
  });
});
