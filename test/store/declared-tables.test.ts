// The repository of a declared table on every engine, for a member of every kind the store
// keeps (test/fixtures/declared-tables.yaml): each comes back as it was sent, a child names only
// stored parents, a merge patch changes only what it names, filters and pages hold exactly the
// matching rows; and served through the generic handlers, the document's own check of stored
// data finds nothing wrong.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { createAuthenticator } from "../../src/auth/authenticator.ts";
import { defaultOpsConfig } from "../../src/config/config.ts";
import { checkStoredData } from "../../src/conformance/stored-data.ts";
import type { ResourceStore } from "../../src/store/rows.ts";
import { ConstraintViolationError } from "../../src/store/store.ts";
import { AUTH, TOKEN } from "../helpers/app.ts";
import {
  declaredStore,
  FIXTURE_DATA,
  FIXTURE_DOCUMENT,
  fixtureDocument,
} from "../helpers/declared.ts";
import { storeEngines, type TestStore } from "../helpers/stores.ts";

const MB = 1024 * 1024;

const thing = (code: string, more: Record<string, unknown> = {}) => ({
  code,
  count: 3,
  active: true,
  kind: "seed",
  labels: null,
  grade: 3,
  ...more,
});

describe.each(storeEngines)("declared tables: $name", (engine) => {
  let db: TestStore;
  let things: ResourceStore;
  let parents: ResourceStore;
  beforeAll(async () => {
    db = await declaredStore(engine);
    const resources = db.store.resources as unknown as Record<string, ResourceStore>;
    things = resources["things"] as ResourceStore;
    parents = resources["parents"] as ResourceStore;
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it("when a row with a member of every kind is created, then each comes back exactly as sent", async () => {
    await parents.create({ id: 2n ** 60n + 3n, name: "p" });
    const row = {
      code: "every-kind",
      count: -2147483648,
      ratio: 0.1,
      active: false,
      kind: "bulb",
      details: { size: 2n ** 53n + 1n, notes: "ñ 🌿" },
      labels: ["a", "é"],
      parentId: 2n ** 60n + 3n,
      bornAt: "2026-11-28T10:00:00.123+05:30",
      grade: 7,
      key: "named key",
      bytes: 12,
    };
    expect(await things.create(row)).toEqual({ kind: "created", row });
    expect(await things.get("every-kind")).toStrictEqual(row);
    expect(await (await db.reopen()).resources).toBeDefined();
  });

  it("when the same row is sent again with its JSON members in another order, then it is a replay; another value conflicts", async () => {
    const row = thing("replay", { details: { size: 1n, notes: "n" } });
    await things.create(row);
    expect((await things.create({ ...row, details: { notes: "n", size: 1n } })).kind).toBe(
      "replayed",
    );
    expect(await things.create({ ...row, count: 4 })).toEqual({ kind: "conflict", existing: row });
  });

  it("when a row names a parent that is not stored, then it is refused naming the member, and a parent named by a row cannot be deleted", async () => {
    expect(await things.create(thing("orphan", { parentId: 404n }))).toEqual({
      kind: "unreferenced",
      member: "parentId",
      value: 404n,
    });
    expect(await things.get("orphan")).toBeUndefined();
    await parents.create({ id: 5n, name: "five" });
    expect((await things.create(thing("child", { parentId: 5n }))).kind).toBe("created");
    await expect(parents.delete(5n)).rejects.toBeInstanceOf(ConstraintViolationError);
    expect(await parents.get(5n)).toEqual({ id: 5n, name: "five" });
    expect(await things.update("child", { parentId: 405n })).toEqual({
      kind: "unreferenced",
      member: "parentId",
      value: 405n,
    });
  });

  it("when a row is patched, then the members given replace the stored ones, null removes an optional one or nulls a nullable one, and the rest stay", async () => {
    await things.create(thing("patched", { ratio: 2.5, labels: ["x"], details: { size: 7n } }));
    expect(await things.update("patched", { ratio: null, labels: null, count: 9 })).toEqual({
      kind: "updated",
      row: thing("patched", { count: 9, labels: null, details: { size: 7n } }),
    });
    expect(await things.update("absent", { count: 1 })).toEqual({ kind: "absent" });
  });

  it("when a member with a default is left out of a create, or removed by a patch, then it is stored as its default", async () => {
    const { grade: _left, ...row } = thing("defaulted");
    expect(await things.create(row)).toEqual({ kind: "created", row: { ...row, grade: 3 } });
    expect((await things.get("defaulted"))?.["grade"]).toBe(3);
    expect((await things.create(row)).kind).toBe("replayed");
    await things.update("defaulted", { grade: 8 });
    expect(await things.update("defaulted", { grade: null })).toEqual({
      kind: "updated",
      row: { ...row, grade: 3 },
    });
  });

  it("when rows are listed with filters, then a page holds only the matching rows, in key order, and the byte bound counts JSON text", async () => {
    const own = await declaredStore(engine);
    try {
      const rows = own.store.resources as unknown as Record<string, ResourceStore>;
      const list = rows["things"] as ResourceStore;
      for (const [code, kind, active] of [
        ["c", "seed", true],
        ["a", "bulb", false],
        ["b", "seed", false],
        ["d", "seed", true],
      ] as const) {
        await list.create(thing(code, { kind, active, details: { notes: "x".repeat(100) } }));
      }
      const codes = async (filters: Record<string, unknown>, after?: string, limit = 10) =>
        (await list.list({ filters, after, limit, maxTextBytes: MB })).rows.map((r) => r["code"]);
      expect(await codes({ kind: "seed" })).toEqual(["b", "c", "d"]);
      expect(await codes({ kind: "seed", active: true })).toEqual(["c", "d"]);
      expect(await codes({ kind: "seed" }, "b", 1)).toEqual(["c"]);
      expect(await codes({ active: false })).toEqual(["a", "b"]);
      const bounded = await list.list({ limit: 10, maxTextBytes: 250 });
      expect(bounded.rows.map((r) => r["code"])).toEqual(["a", "b"]);
      expect(bounded.full).toBe(true);
    } finally {
      await own.destroy();
    }
  });

  describe("served by the generic handlers", () => {
    let served: TestStore;
    let app: Awaited<ReturnType<typeof buildApp>>;
    beforeAll(async () => {
      served = await declaredStore(engine);
      app = await buildApp({
        store: served.store,
        definition: fixtureDocument(),
        authenticator: (log) =>
          createAuthenticator({
            staticTokens: [TOKEN],
            tokens: served.store.tokens,
            jwt: undefined,
            log,
          }),
        logLevel: "silent",
        ops: { ...defaultOpsConfig(), maxEventLoopDelayMs: 0 },
      });
    });
    afterAll(async () => {
      await app?.close();
      await served?.destroy();
    });
    const call = async (method: string, target: string, body?: string) => {
      const answer = await app.inject({
        method: method as "GET",
        url: target,
        headers: { ...AUTH, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { payload: body }),
      });
      const link = answer.headers.link;
      return {
        status: answer.statusCode,
        text: answer.body,
        link: typeof link === "string" ? link : undefined,
      };
    };

    it.each([1, 2, 3])(
      "when every member is created, patched and filtered on (seed %s), then the document's check finds nothing wrong",
      async (seed) => {
        expect(await checkStoredData(FIXTURE_DOCUMENT, FIXTURE_DATA, call, seed)).toEqual([]);
      },
    );

    it("when the store ignores a filter, then the check says so", async () => {
      const list = (served.store.resources as unknown as Record<string, ResourceStore>)[
        "things"
      ] as ResourceStore;
      const original = list.list;
      list.list = (page) => original({ ...page, filters: {} });
      try {
        const findings = await checkStoredData(FIXTURE_DOCUMENT, FIXTURE_DATA, call, 1);
        expect(findings).toContainEqual(
          expect.stringMatching(/^filtering things on kind returned/),
        );
      } finally {
        list.list = original;
      }
    });

    it("when a child names a parent not stored, then it is answered 422 naming the member", async () => {
      const answer = await call("POST", "/things", JSON.stringify(thing("lost", { parentId: 77 })));
      expect(answer.status).toBe(422);
      expect(JSON.parse(answer.text)).toEqual({
        error: 422,
        message: "`parentId` names no stored parents row (77)",
      });
    });
  });
});
