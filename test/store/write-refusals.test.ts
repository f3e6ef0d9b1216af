// A write that breaks a rule of the schema — a check or a foreign key a resource's migration
// declares — is refused alone, on each engine: the other writes of its batch are stored, and
// the store goes on writing, and two instances racing a parent's delete leave no orphan. The
// rules are added here as a user's migration would add them.
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import type { FastifyRequest } from "fastify";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { answerFor } from "../../src/http/errors.ts";
import { ConstraintViolationError, type Store } from "../../src/store/store.ts";
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
        const failed: string[] = [];
        store.observeWrites({
          settled: () => undefined,
          failed: (write, _seconds, error) => failed.push(`${write} ${(error as Error).name}`),
        });
        const [fern, forbidden, rose] = [uniqueId(), uniqueId(), uniqueId()];
        // Submitted in one turn of the event loop: one batch.
        const results = await Promise.allSettled([
          store.resources.plants.create({ id: fern, name: "Fern" }),
          store.resources.plants.create({ id: forbidden, name: "forbidden" }),
          store.resources.plants.create({ id: rose, name: "Rose" }),
        ]);
        expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
        const refusal = (results[1] as PromiseRejectedResult).reason as Error;
        expect(refusal).toBeInstanceOf(ConstraintViolationError);
        expect(refusal.message).toMatch(/^the store refused the write: .*no_forbidden/);
        // The metrics' seam hears of it (outcome=violated).
        expect(failed).toEqual(["createPlant ConstraintViolationError"]);
        expect(await store.resources.plants.get(fern)).toEqual({ id: fern, name: "Fern" });
        expect(await store.resources.plants.get(forbidden)).toBeUndefined();
        expect(await store.resources.plants.get(rose)).toEqual({ id: rose, name: "Rose" });
        const after = uniqueId();
        expect(await store.resources.plants.create({ id: after, name: "After" })).toMatchObject({
          kind: "created",
        });
      },
    );
  });

  it("when a plant another table references is deleted, then that delete alone is refused by the foreign key, and the plant stays", async () => {
    const [kept, free] = [uniqueId(), uniqueId()];
    await withStore({ sqlite: () => undefined, postgres: async () => undefined }, async (db) => {
      await db.store.resources.plants.create({ id: kept, name: "Noted" });
      await db.store.resources.plants.create({ id: free, name: "Free" });
      await onConnection(db.url, NOTES_OF(kept));
      const results = await Promise.allSettled([
        db.store.resources.plants.delete(kept),
        db.store.resources.plants.delete(free),
      ]);
      expect(results[0]).toMatchObject({
        status: "rejected",
        reason: expect.any(ConstraintViolationError),
      });
      expect(results[1]).toEqual({ status: "fulfilled", value: true });
      expect(await db.store.resources.plants.get(kept)).toEqual({ id: kept, name: "Noted" });
      expect(await db.store.resources.plants.get(free)).toBeUndefined();
    });
  });

  it("when two instances create children while their parents are deleted, then no child is left without its parent, and only the writes that named a deleted parent are refused", async () => {
    // Tags are the parents here: a plant's tag must name a row of `tags`.
    const tags = Array.from({ length: 20 }, (_, n) => `t${n}`);
    await withStore(
      {
        // SQLite adds no foreign key to a table after the fact; triggers keep the same rule.
        sqlite: (sqlite) =>
          sqlite.exec(`CREATE TABLE tags (name TEXT PRIMARY KEY) STRICT;
            INSERT INTO tags (name) VALUES ${tags.map((t) => `('${t}')`).join(", ")};
            CREATE TRIGGER plant_tag BEFORE INSERT ON plants
              WHEN NEW.tag IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tags WHERE name = NEW.tag)
              BEGIN SELECT RAISE(ABORT, 'plant_tag: no such tag'); END;
            CREATE TRIGGER tag_in_use BEFORE DELETE ON tags
              WHEN EXISTS (SELECT 1 FROM plants WHERE tag = OLD.name)
              BEGIN SELECT RAISE(ABORT, 'tag_in_use'); END`),
        postgres: async (sql) => {
          await sql`CREATE TABLE tags (name TEXT PRIMARY KEY)`;
          await sql`INSERT INTO tags (name) SELECT unnest(${tags}::text[])`;
          await sql`ALTER TABLE plants ADD CONSTRAINT plant_tag FOREIGN KEY (tag) REFERENCES tags (name)`;
        },
      },
      async (db) => {
        const instances = [db.store, await db.reopen()];
        type Outcome = { id: bigint; tag: string | null; outcome: string };
        const create = (store: Store, tag: string | null, n: number): Promise<Outcome> => {
          const id = uniqueId();
          return store.resources.plants
            .create({ id, name: `p${n}`, ...(tag === null ? {} : { tag }) })
            .then(
              () => ({ id, tag, outcome: "created" }),
              (error: unknown) => ({
                id,
                tag,
                outcome: error instanceof ConstraintViolationError ? "refused" : String(error),
              }),
            );
        };
        // Wave w names parent w (and, every fourth, none: nothing may refuse those), from both
        // instances at once, while parent w is deleted over a connection of its own.
        const remove = await parentRemover(db.url);
        const creates: Promise<Outcome>[] = [];
        const deletes: Promise<string | undefined>[] = [];
        try {
          for (const tag of tags) {
            for (let n = 0; n < 20; n++) {
              const store = instances[n % 2] as Store;
              creates.push(create(store, n % 4 === 0 ? null : tag, n));
            }
            deletes.push(remove(tag));
            await sleep(2);
          }
          await Promise.all(deletes);
        } finally {
          await remove.close();
        }
        const deleted = (await Promise.all(deletes)).filter((tag) => tag !== undefined);
        const outcomes = await Promise.all(creates);
        expect(outcomes.filter((o) => !["created", "refused"].includes(o.outcome))).toEqual([]);
        expect(outcomes.filter((o) => o.tag === null && o.outcome !== "created")).toEqual([]);
        const created = outcomes.filter((o) => o.outcome === "created");
        const refused = outcomes.filter((o) => o.outcome === "refused");
        // Parents were deleted while children named them (on PostgreSQL some of the deletes
        // lose to the creates of their wave and are refused in turn).
        expect(deleted.length).toBeGreaterThan(0);
        // The race happened: each wave's creates were sent before its parent's delete, and
        // some were still in flight when the delete landed, so met their parent gone.
        expect(refused.length).toBeGreaterThan(0);
        // Each refused write named a deleted parent, and no other write was refused.
        expect(refused.filter((o) => o.tag === null || !deleted.includes(o.tag))).toEqual([]);
        // Not one child stored whose parent was deleted (an orphan, or two answers that
        // contradict: a child created and its parent deleted).
        expect(created.filter((o) => o.tag !== null && deleted.includes(o.tag))).toEqual([]);
        for (const { id, outcome } of outcomes) {
          const stored = await db.store.resources.plants.get(id);
          expect(stored === undefined, `${id} ${outcome}`).toBe(outcome === "refused");
        }
      },
    );
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

/** Deletes a parent (a row of `tags`) over one connection; the tag, or undefined if refused. */
async function parentRemover(url: string) {
  if (url.startsWith("sqlite:")) {
    const sqlite = new Database(url.slice("sqlite:".length));
    sqlite.pragma("busy_timeout = 5000");
    const statement = sqlite.prepare("DELETE FROM tags WHERE name = ?");
    return Object.assign(
      async (tag: string) => {
        try {
          statement.run(tag);
          return tag;
        } catch {
          return undefined;
        }
      },
      { close: async () => void sqlite.close() },
    );
  }
  const sql = postgres(url, { max: 4, onnotice: () => undefined });
  return Object.assign(
    (tag: string) =>
      sql`DELETE FROM tags WHERE name = ${tag}`.then(
        () => tag,
        () => undefined,
      ),
    { close: () => sql.end({ timeout: 1 }) },
  );
}
