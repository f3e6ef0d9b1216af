// The behaviour every PlantStore engine must have. Each engine's test file calls this once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INT64_MAX, INT64_MIN } from "../../src/http/int64.ts";
import { StoreUnavailableError, UnstorableValueError } from "../../src/store/store.ts";
import { uniqueId } from "../helpers/app.ts";
import type { StoreEngine, TestStore } from "../helpers/stores.ts";

export function describeStoreContract(engine: StoreEngine): void {
  describe(`PlantStore contract: ${engine.name}`, () => {
    let db: TestStore;
    beforeAll(async () => {
      db = await engine.create();
    });
    afterAll(async () => {
      await db.destroy();
    });

    it("when a new plant is created, then it is stored and reported as created", async () => {
      const id = uniqueId();
      expect(await db.store.create({ id, name: "Fern", tag: "green" })).toEqual({
        kind: "created",
        plant: { name: "Fern", tag: "green" },
      });
      expect(await db.store.get(id)).toEqual({ name: "Fern", tag: "green" });
    });

    it("when the same plant is created again, then it is a replay and nothing changes", async () => {
      const id = uniqueId();
      await db.store.create({ id, name: "Fern" });
      expect(await db.store.create({ id, name: "Fern" })).toEqual({
        kind: "replayed",
        plant: { name: "Fern" },
      });
      expect(await db.store.get(id)).toEqual({ name: "Fern" });
    });

    it.each([
      [{ name: "Rose" }, "another name"],
      [{ name: "Fern", tag: "x" }, "a tag where there was none"],
      [{ name: "Fern", tag: "" }, "an empty tag where there was none"],
    ])(
      "when %j is created under a taken id (%s), then it conflicts and the first stays",
      async (second, _why) => {
        const id = uniqueId();
        await db.store.create({ id, name: "Fern" });
        expect(await db.store.create({ id, ...second })).toEqual({
          kind: "conflict",
          existing: { name: "Fern" },
        });
        expect(await db.store.get(id)).toEqual({ name: "Fern" });
      },
    );

    it.each([INT64_MAX, INT64_MIN, 0n, -1n, 2n ** 53n + 1n, -(2n ** 53n) - 1n])(
      "when the id is %s, then it is kept exactly and distinct from its neighbours",
      async (id) => {
        await db.store.create({ id, name: `plant ${id}` });
        expect(await db.store.get(id)).toEqual({ name: `plant ${id}` });
        // A rounded or truncated id would land the plant on a neighbour too.
        const neighbour = id === INT64_MAX ? id - 1n : id + 1n;
        expect(await db.store.get(neighbour)).not.toStrictEqual({ name: `plant ${id}` });
      },
    );

    it.each([
      ["Unicode", "Fikus 🌿 ñ 中文 ﷽"],
      ["an empty string", ""],
      ["combining marks kept unnormalised", "e\u0301"],
      ["a long name", "x".repeat(60_000)],
    ])("when the name holds %s, then it is kept exactly", async (_what, name) => {
      const id = uniqueId();
      await db.store.create({ id, name, tag: name });
      expect(await db.store.get(id)).toEqual({ name, tag: name });
    });

    it.each([
      ["a lone surrogate in the name", { name: "bad \ud800" }],
      ["a lone surrogate in the tag", { name: "ok", tag: "\udc00" }],
      ["a NUL in the name", { name: "nul\u0000inside" }],
      ["a NUL in the tag", { name: "ok", tag: "\u0000" }],
    ])("when a plant holds %s, then it is refused and nothing is stored", async (_what, plant) => {
      const id = uniqueId();
      await expect(db.store.create({ id, ...plant })).rejects.toBeInstanceOf(UnstorableValueError);
      expect(await db.store.get(id)).toBeUndefined();
    });

    it("when many creates of one id race, then exactly one version wins", async () => {
      const id = uniqueId();
      const other = await db.reopen();
      const attempts = Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? db.store : other).create({ id, name: `v${i % 4}` }),
      );
      const results = await Promise.all(attempts);
      const stored = await db.store.get(id);
      expect(results.filter((r) => r.kind === "created")).toHaveLength(1);
      for (const [i, result] of results.entries()) {
        const expected = `v${i % 4}` === stored?.name ? ["created", "replayed"] : ["conflict"];
        expect(expected).toContain(result.kind);
      }
    });

    // Creates started in one turn of the event loop are committed together (group commit);
    // inside that batch they must still meet one another in the order they were made.
    it("when creates of one id are made together, then the first wins and the rest meet it in order", async () => {
      const [a, b] = [uniqueId(), uniqueId()];
      const results = await Promise.all([
        db.store.create({ id: a, name: "first", tag: "t" }),
        db.store.create({ id: b, name: "other" }),
        db.store.create({ id: a, name: "first", tag: "t" }),
        db.store.create({ id: a, name: "first" }),
        db.store.create({ id: a, name: "second", tag: "t" }),
        db.store.create({ id: b, name: "other" }),
      ]);
      expect(results.map((r) => r.kind)).toEqual([
        "created",
        "created",
        "replayed",
        "conflict",
        "conflict",
        "replayed",
      ]);
      expect(results[3]).toEqual({ kind: "conflict", existing: { name: "first", tag: "t" } });
      expect(await db.store.get(a)).toEqual({ name: "first", tag: "t" });
    });

    it("when hundreds of creates are made at once, then each is answered for its own plant", async () => {
      const plants = Array.from({ length: 1500 }, (_, i) => ({ id: uniqueId(), name: `p${i}` }));
      const results = await Promise.all(plants.map((plant) => db.store.create(plant)));
      expect(results).toEqual(plants.map(({ name }) => ({ kind: "created", plant: { name } })));
      const other = await db.reopen();
      for (const { id, name } of plants.filter((_, i) => i % 500 === 499)) {
        expect(await other.get(id)).toEqual({ name });
      }
    });

    it("when the store is open, then ping resolves", async () => {
      await expect(db.store.ping()).resolves.toBeUndefined();
    });

    it("when the store has been closed, then ping rejects as unavailable", async () => {
      const closed = await db.reopen();
      await closed.close();
      await expect(closed.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    });

    it("when a plant is stored, then another connection sees it", async () => {
      const id = uniqueId();
      await db.store.create({ id, name: "Shared" });
      expect(await (await db.reopen()).get(id)).toEqual({ name: "Shared" });
    });
  });
}
