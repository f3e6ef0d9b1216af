// A write that breaks a rule of the schema — a check or a foreign key a resource's migration
// declares — is refused alone, on each engine: the other writes of its batch are stored, and
// the store goes on writing. The rules are added here as a user's migration would add them.
import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { answerFor } from "../../src/http/errors.ts";
import { ConstraintViolationError } from "../../src/store/store.ts";
import { uniqueId } from "../helpers/app.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";
import { onConnection } from "../helpers/token-rows.ts";

describe.each(storeEngines)("writes refused by a rule of the schema ($name)", (engine) => {
  const withStore = async (
    rules: Parameters<typeof onConnection>[1],
    test: (db: TestStore) => Promise<void>,
  ) => {
    const db = await engine.create();
    try {
      await onConnection(db.url, rules);
      await test(db);
    } finally {
      await db.destroy();
    }
  };

  it("when one write of a batch breaks a check, then that write alone is refused and the others are stored", async () => {
    await withStore(
      {
        // SQLite adds no check to a table after the fact; a trigger raising the same refusal does.
        sqlite: (sqlite) =>
          sqlite.exec(`CREATE TRIGGER no_forbidden BEFORE INSERT ON plants
                       WHEN NEW.name = 'forbidden'
                       BEGIN SELECT RAISE(ABORT, 'no_forbidden: the name is not allowed'); END`),
        postgres: (sql) =>
          sql`ALTER TABLE plants ADD CONSTRAINT no_forbidden CHECK (name <> 'forbidden')`,
      },
      async ({ store }) => {
        const [fern, forbidden, rose] = [uniqueId(), uniqueId(), uniqueId()];
        // Submitted in one turn of the event loop: one batch.
        const results = await Promise.allSettled([
          store.create({ id: fern, name: "Fern" }),
          store.create({ id: forbidden, name: "forbidden" }),
          store.create({ id: rose, name: "Rose" }),
        ]);
        expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
        const refusal = (results[1] as PromiseRejectedResult).reason as Error;
        expect(refusal).toBeInstanceOf(ConstraintViolationError);
        expect(refusal.message).toMatch(/^the store refused the write: .*no_forbidden/);
        expect(await store.get(fern)).toEqual({ name: "Fern" });
        expect(await store.get(forbidden)).toBeUndefined();
        expect(await store.get(rose)).toEqual({ name: "Rose" });
        const after = uniqueId();
        expect(await store.create({ id: after, name: "After" })).toMatchObject({ kind: "created" });
      },
    );
  });

  it("when a plant another table references is deleted, then that delete alone is refused by the foreign key, and the plant stays", async () => {
    const [kept, free] = [uniqueId(), uniqueId()];
    await withStore({ sqlite: () => undefined, postgres: async () => undefined }, async (db) => {
      await db.store.create({ id: kept, name: "Noted" });
      await db.store.create({ id: free, name: "Free" });
      await onConnection(db.url, NOTES_OF(kept));
      const results = await Promise.allSettled([db.store.delete(kept), db.store.delete(free)]);
      expect(results[0]).toMatchObject({
        status: "rejected",
        reason: expect.any(ConstraintViolationError),
      });
      expect(results[1]).toEqual({ status: "fulfilled", value: true });
      expect(await db.store.get(kept)).toEqual({ name: "Noted" });
      expect(await db.store.get(free)).toBeUndefined();
    });
  });
});

describe("a write refused by a rule, answered", () => {
  it("when a handler's write is refused by a rule, then the error path answers 409 with its message", () => {
    const refusal = new ConstraintViolationError("the store refused the write: no_forbidden");
    // The refusal is told before anything of the request is looked at.
    const { answer, logged } = answerFor(refusal, {} as FastifyRequest, 0);
    expect(answer).toMatchObject({
      status: 409,
      body: { error: 409, message: "the store refused the write: no_forbidden" },
    });
    expect(logged).toBeUndefined();
  });
});

/** A notes table whose one row references plant `id`. */
const NOTES_OF = (id: bigint): Parameters<typeof onConnection>[1] => ({
  sqlite: (sqlite) => {
    sqlite.exec("CREATE TABLE notes (plant_id INTEGER NOT NULL REFERENCES plants (id)) STRICT");
    sqlite.prepare("INSERT INTO notes (plant_id) VALUES (?)").run(id);
  },
  postgres: async (sql) => {
    await sql`CREATE TABLE notes (plant_id BIGINT NOT NULL REFERENCES plants (id))`;
    await sql`INSERT INTO notes (plant_id) VALUES (${String(id)}::int8)`;
  },
});
