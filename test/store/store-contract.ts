// The behaviour every engine's repository of a declared table must have, shown on the plants.
// Each engine's test file calls this once.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../../src/store/store.ts";
import { INT64_MAX, INT64_MIN } from "../../src/text/int64.ts";
import { uniqueId } from "../helpers/app.ts";
import type { StoreEngine, TestStore } from "../helpers/stores.ts";

const MB = 1024 * 1024;

export function describeStoreContract(engine: StoreEngine): void {
  describe(`ResourceStore contract (plants): ${engine.name}`, () => {
    let db: TestStore;
    beforeAll(async () => {
      db = await engine.create();
    });
    afterAll(async () => {
      await db.destroy();
    });

    it("when a new plant is created, then it is stored and reported as created", async () => {
      const id = uniqueId();
      expect(await db.store.resources.plants.create({ id, name: "Fern", tag: "green" })).toEqual({
        kind: "created",
        row: { id, name: "Fern", tag: "green" },
      });
      expect(await db.store.resources.plants.get(id)).toEqual({
        id,
        name: "Fern",
        tag: "green",
      });
    });

    it("when the same plant is created again, then it is a replay and nothing changes", async () => {
      const id = uniqueId();
      await db.store.resources.plants.create({ id, name: "Fern" });
      expect(await db.store.resources.plants.create({ id, name: "Fern" })).toEqual({
        kind: "replayed",
        row: { id, name: "Fern" },
      });
      expect(await db.store.resources.plants.get(id)).toEqual({ id, name: "Fern" });
    });

    it.each([
      [{ name: "Rose" }, "another name"],
      [{ name: "Fern", tag: "x" }, "a tag where there was none"],
      [{ name: "Fern", tag: "" }, "an empty tag where there was none"],
    ])(
      "when %j is created under a taken id (%s), then it conflicts and the first stays",
      async (second, _why) => {
        const id = uniqueId();
        await db.store.resources.plants.create({ id, name: "Fern" });
        expect(await db.store.resources.plants.create({ id, ...second })).toEqual({
          kind: "conflict",
          existing: { id, name: "Fern" },
        });
        expect(await db.store.resources.plants.get(id)).toEqual({ id, name: "Fern" });
      },
    );

    it.each([INT64_MAX, INT64_MIN, 0n, -1n, 2n ** 53n + 1n, -(2n ** 53n) - 1n])(
      "when the id is %s, then it is kept exactly and distinct from its neighbours",
      async (id) => {
        await db.store.resources.plants.create({ id, name: `plant ${id}` });
        expect(await db.store.resources.plants.get(id)).toEqual({ id, name: `plant ${id}` });
        // A rounded or truncated id would land the plant on a neighbour too.
        const neighbour = id === INT64_MAX ? id - 1n : id + 1n;
        expect(await db.store.resources.plants.get(neighbour)).not.toStrictEqual({
          name: `plant ${id}`,
        });
      },
    );

    it.each([
      ["Unicode", "Fikus 🌿 ñ 中文 ﷽"],
      ["an empty string", ""],
      ["combining marks kept unnormalised", "e\u0301"],
      ["a long name", "x".repeat(60_000)],
    ])("when the name holds %s, then it is kept exactly", async (_what, name) => {
      const id = uniqueId();
      await db.store.resources.plants.create({ id, name, tag: name });
      expect(await db.store.resources.plants.get(id)).toEqual({ id, name, tag: name });
    });

    it("when many creates of one id race, then exactly one version wins", async () => {
      const id = uniqueId();
      const other = await db.reopen();
      const attempts = Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? db.store : other).resources.plants.create({ id, name: `v${i % 4}` }),
      );
      const results = await Promise.all(attempts);
      const stored = await db.store.resources.plants.get(id);
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
        db.store.resources.plants.create({ id: a, name: "first", tag: "t" }),
        db.store.resources.plants.create({ id: b, name: "other" }),
        db.store.resources.plants.create({ id: a, name: "first", tag: "t" }),
        db.store.resources.plants.create({ id: a, name: "first" }),
        db.store.resources.plants.create({ id: a, name: "second", tag: "t" }),
        db.store.resources.plants.create({ id: b, name: "other" }),
      ]);
      expect(results.map((r) => r.kind)).toEqual([
        "created",
        "created",
        "replayed",
        "conflict",
        "conflict",
        "replayed",
      ]);
      expect(results[3]).toEqual({
        kind: "conflict",
        existing: { id: a, name: "first", tag: "t" },
      });
      expect(await db.store.resources.plants.get(a)).toEqual({ id: a, name: "first", tag: "t" });
    });

    // Writes to one id commit in the order they were made, even where batches commit side by
    // side (a pool): other writes in flight spread them over several batches.
    it("when creates, updates and deletes of one id are made together among hundreds of other writes, then they apply in the order made", async () => {
      const id = uniqueId();
      const noise = () =>
        Array.from({ length: 150 }, (_, i) =>
          i % 3 === 0
            ? db.store.resources.plants.update(uniqueId(), { name: "noise" })
            : db.store.resources.plants.create({ id: uniqueId(), name: "noise" }),
        );
      const steps: Promise<unknown>[] = [];
      const writes = [
        () => db.store.resources.plants.create({ id, name: "first" }),
        () => db.store.resources.plants.update(id, { tag: "a" }),
        () => db.store.resources.plants.delete(id),
        () => db.store.resources.plants.update(id, { name: "nothing to change" }),
        () => db.store.resources.plants.create({ id, name: "second", tag: "t" }),
        () => db.store.resources.plants.update(id, { tag: null }),
        () => db.store.resources.plants.delete(id),
        () => db.store.resources.plants.delete(id),
        () => db.store.resources.plants.create({ id, name: "third" }),
        () => db.store.resources.plants.create({ id, name: "third" }),
        () => db.store.resources.plants.update(id, { name: "fourth", tag: "b" }),
      ];
      for (const write of writes) steps.push(...noise(), write());
      const results = await Promise.all(steps);
      const ours = results.filter((_, i) => (i + 1) % 151 === 0);
      expect(ours).toEqual([
        { kind: "created", row: { id, name: "first" } },
        { kind: "updated", row: { id, name: "first", tag: "a" } },
        true,
        { kind: "absent" },
        { kind: "created", row: { id, name: "second", tag: "t" } },
        { kind: "updated", row: { id, name: "second" } },
        true,
        false,
        { kind: "created", row: { id, name: "third" } },
        { kind: "replayed", row: { id, name: "third" } },
        { kind: "updated", row: { id, name: "fourth", tag: "b" } },
      ]);
      expect(await db.store.resources.plants.get(id)).toEqual({ id, name: "fourth", tag: "b" });
    });

    it("when a stored plant is updated, then each member given replaces the stored one, tag null removes the tag, and every connection sees it", async () => {
      const id = uniqueId();
      await db.store.resources.plants.create({ id, name: "Ivy", tag: "climber" });
      expect(await db.store.resources.plants.update(id, { name: "English ivy" })).toEqual({
        kind: "updated",
        row: { id, name: "English ivy", tag: "climber" },
      });
      expect(await db.store.resources.plants.update(id, { tag: "evergreen" })).toEqual({
        kind: "updated",
        row: { id, name: "English ivy", tag: "evergreen" },
      });
      expect(await db.store.resources.plants.update(id, { tag: null })).toEqual({
        kind: "updated",
        row: { id, name: "English ivy" },
      });
      expect(await db.store.resources.plants.update(id, { tag: null })).toEqual({
        kind: "updated",
        row: { id, name: "English ivy" },
      });
      expect(await db.store.resources.plants.update(id, { name: "Ivy", tag: "" })).toEqual({
        kind: "updated",
        row: { id, name: "Ivy", tag: "" },
      });
      expect(await (await db.reopen()).resources.plants.get(id)).toEqual({
        id,
        name: "Ivy",
        tag: "",
      });
    });

    it("when an id that is not stored is updated, then nothing is stored and undefined is the answer", async () => {
      const id = uniqueId();
      expect(await db.store.resources.plants.update(id, { name: "Ghost", tag: "x" })).toEqual({
        kind: "absent",
      });
      expect(await db.store.resources.plants.get(id)).toBeUndefined();
    });

    // In one batch, so that PostgreSQL meets the same id several times in one run of updates.
    it("when several updates of one id are made together, then each sees the one before", async () => {
      const [a, b] = [uniqueId(), uniqueId()];
      await db.store.resources.plants.create({ id: a, name: "a" });
      await db.store.resources.plants.create({ id: b, name: "b" });
      const results = await Promise.all([
        db.store.resources.plants.update(a, { tag: "1" }),
        db.store.resources.plants.update(b, { name: "b2" }),
        db.store.resources.plants.update(a, { name: "a2" }),
        db.store.resources.plants.update(a, { tag: null }),
        db.store.resources.plants.update(uniqueId(), { name: "absent" }),
        db.store.resources.plants.update(b, { tag: "t" }),
        db.store.resources.plants.update(a, { tag: "2" }),
      ]);
      const updated = (id: bigint, plant: object) => ({ kind: "updated", row: { id, ...plant } });
      expect(results).toEqual([
        updated(a, { name: "a", tag: "1" }),
        updated(b, { name: "b2" }),
        updated(a, { name: "a2", tag: "1" }),
        updated(a, { name: "a2" }),
        { kind: "absent" },
        updated(b, { name: "b2", tag: "t" }),
        updated(a, { name: "a2", tag: "2" }),
      ]);
      expect(await db.store.resources.plants.get(a)).toEqual({ id: a, name: "a2", tag: "2" });
    });

    it.each([INT64_MAX, INT64_MIN, 2n ** 53n + 1n])(
      "when the plant with id %s is updated, then exactly it changes and its neighbour stays",
      async (id) => {
        const neighbour = id === INT64_MAX ? id - 1n : id + 1n;
        // Either may be stored already by a test above; the update must touch only its own id.
        await db.store.resources.plants.create({ id, name: "before" });
        await db.store.resources.plants.create({ id: neighbour, name: "neighbour" });
        const neighbourBefore = await db.store.resources.plants.get(neighbour);
        expect(await db.store.resources.plants.update(id, { name: `after ${id}` })).toMatchObject({
          kind: "updated",
          row: { name: `after ${id}` },
        });
        expect(await db.store.resources.plants.get(neighbour)).toEqual(neighbourBefore);
      },
    );

    // Random text does not compress, so it is stored out of line (PostgreSQL's TOAST) at full size.
    it("when a name and a tag of 30 000 random characters each are written by an update, then they are kept exactly", async () => {
      const id = uniqueId();
      const random = () =>
        Array.from(randomBytes(30_000), (byte) => String.fromCharCode(0x20 + (byte % 95))).join("");
      const [name, tag] = [random(), random()];
      await db.store.resources.plants.create({ id, name: "short" });
      expect(await db.store.resources.plants.update(id, { name, tag })).toEqual({
        kind: "updated",
        row: { id, name, tag },
      });
      expect(await (await db.reopen()).resources.plants.get(id)).toEqual({ id, name, tag });
    });

    it("when hundreds of creates are made at once, then each is answered for its own plant", async () => {
      const plants = Array.from({ length: 1500 }, (_, i) => ({ id: uniqueId(), name: `p${i}` }));
      const results = await Promise.all(
        plants.map((plant) => db.store.resources.plants.create(plant)),
      );
      expect(results).toEqual(plants.map((plant) => ({ kind: "created", row: plant })));
      const other = await db.reopen();
      for (const { id, name } of plants.filter((_, i) => i % 500 === 499)) {
        expect(await other.resources.plants.get(id)).toEqual({ id, name });
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
      await db.store.resources.plants.create({ id, name: "Shared" });
      expect(await (await db.reopen()).resources.plants.get(id)).toEqual({
        id,
        name: "Shared",
      });
    });

    it("when a stored plant is deleted, then it is gone for every connection, and a second delete finds nothing", async () => {
      const id = uniqueId();
      await db.store.resources.plants.create({ id, name: "Ivy", tag: "climber" });
      expect(await db.store.resources.plants.delete(id)).toBe(true);
      expect(await db.store.resources.plants.get(id)).toBeUndefined();
      expect(await (await db.reopen()).resources.plants.get(id)).toBeUndefined();
      expect(await db.store.resources.plants.delete(id)).toBe(false);
      expect(await db.store.resources.plants.delete(uniqueId())).toBe(false);
    });

    it("when a deleted id is created again under another name, then it is a fresh create", async () => {
      const id = uniqueId();
      await db.store.resources.plants.create({ id, name: "Ivy", tag: "climber" });
      await db.store.resources.plants.delete(id);
      expect(await db.store.resources.plants.create({ id, name: "Rose" })).toEqual({
        kind: "created",
        row: { id, name: "Rose" },
      });
      expect(await db.store.resources.plants.get(id)).toEqual({ id, name: "Rose" });
    });

    it.each([INT64_MAX, INT64_MIN, 2n ** 53n + 1n])(
      "when the plant with id %s is deleted, then exactly it goes and its neighbour stays",
      async (id) => {
        const neighbour = id === INT64_MAX ? id - 1n : id + 1n;
        const own = await engine.create();
        try {
          await own.store.resources.plants.create({ id, name: "gone" });
          await own.store.resources.plants.create({ id: neighbour, name: "stays" });
          expect(await own.store.resources.plants.delete(id)).toBe(true);
          expect(
            (await own.store.resources.plants.list({ limit: 10, maxTextBytes: MB })).rows,
          ).toEqual([{ id: neighbour, name: "stays" }]);
        } finally {
          await own.destroy();
        }
      },
    );

    describe("listing", () => {
      let listed: TestStore;
      const ids = [INT64_MIN, -(2n ** 53n) - 1n, -1n, 0n, 7n, 2n ** 53n + 1n, INT64_MAX];
      beforeAll(async () => {
        listed = await engine.create();
        // Created out of order: the listing's order is the ids', not the creates'.
        for (const id of [...ids].reverse()) {
          await listed.store.resources.plants.create(
            id === 7n ? { id, name: "seven", tag: "t" } : { id, name: `p${id}` },
          );
        }
      });
      afterAll(async () => {
        await listed?.destroy();
      });

      it("when the names and tags of a page would pass the byte bound, then the page ends before it, full, and holds at least one plant", async () => {
        const own = await engine.create();
        try {
          // Multi-byte text: the bound is in UTF-8 bytes, not characters.
          const big = "é".repeat(300);
          for (const id of [1n, 2n, 3n, 4n])
            await own.store.resources.plants.create({ id, name: big, tag: "t" });
          const page = await own.store.resources.plants.list({ limit: 10, maxTextBytes: 1300 });
          expect(page.rows.map((plant) => plant.id)).toEqual([1n, 2n]);
          expect(page.full).toBe(true);
          const alone = await own.store.resources.plants.list({
            after: 2n,
            limit: 10,
            maxTextBytes: 100,
          });
          expect(alone).toEqual({ rows: [{ id: 3n, name: big, tag: "t" }], full: true });
          const last = await own.store.resources.plants.list({
            after: 3n,
            limit: 10,
            maxTextBytes: 100,
          });
          expect(last).toEqual({ rows: [{ id: 4n, name: big, tag: "t" }], full: false });
        } finally {
          await own.destroy();
        }
      });

      it("when an empty store is listed, then the page is empty", async () => {
        const empty = await engine.create();
        try {
          expect(await empty.store.resources.plants.list({ limit: 100, maxTextBytes: MB })).toEqual(
            {
              rows: [],
              full: false,
            },
          );
        } finally {
          await empty.destroy();
        }
      });

      it("when listed without after, then every plant comes in ascending id order with exact ids", async () => {
        const { rows: page, full } = await listed.store.resources.plants.list({
          limit: 100,
          maxTextBytes: MB,
        });
        expect(full).toBe(false);
        expect(page.map((plant) => plant.id)).toEqual(ids);
        expect(page[4]).toEqual({ id: 7n, name: "seven", tag: "t" });
        expect(page[0]).toEqual({ id: INT64_MIN, name: `p${INT64_MIN}` });
      });

      it.each([
        [undefined, 3, ids.slice(0, 3)],
        [INT64_MIN, 2, ids.slice(1, 3)],
        [-1n, 100, ids.slice(3)],
        [-2n, 1, [-1n]],
        [2n ** 53n, 5, ids.slice(5)],
        [INT64_MAX - 1n, 5, [INT64_MAX]],
        [INT64_MAX, 5, []],
      ])(
        "when listed after %s with limit %s, then the page is exactly the ids above it",
        async (after, limit, expected) => {
          const { rows: plants, full } = await listed.store.resources.plants.list({
            after,
            limit,
            maxTextBytes: MB,
          });
          expect(plants.map((plant) => plant.id)).toEqual(expected);
          expect(full).toBe(expected.length === limit);
        },
      );

      it("when paged through while plants are created and deleted, then the pages ascend and hold every plant that stayed exactly once", async () => {
        const paged = await engine.create();
        try {
          const stayers = Array.from({ length: 300 }, (_, i) => BigInt(i * 10));
          const leavers = stayers.map((id) => id + 5n);
          for (const id of [...stayers, ...leavers])
            await paged.store.resources.plants.create({ id, name: `p${id}` });
          let writing = true;
          const writes = (async () => {
            for (let i = 0; writing; i++) {
              const leaver = leavers[i % leavers.length] ?? 0n;
              await paged.store.resources.plants.delete(leaver);
              await paged.store.resources.plants.create({ id: leaver + 2n, name: "newcomer" });
            }
          })();
          const seen: bigint[] = [];
          let after: bigint | undefined;
          for (;;) {
            const { rows: page, full } = await paged.store.resources.plants.list({
              after,
              limit: 7,
              maxTextBytes: MB,
            });
            seen.push(...page.map((plant) => plant.id));
            if (!full) break;
            after = page.at(-1)?.id;
          }
          writing = false;
          await writes;
          for (const [i, id] of seen.entries()) {
            if (i > 0) expect(id > (seen[i - 1] ?? 0n), `page order at ${id}`).toBe(true);
          }
          const kept = new Set(seen);
          expect(stayers.filter((id) => !kept.has(id))).toEqual([]);
        } finally {
          await paged.destroy();
        }
      });
    });
  });
}
