// The document's check for dropped data (src/conformance/stored-data.ts), on every engine: every
// declared table keeps each member of a create and of a patch, and its filters return only and
// all the matching rows; a store that drops a member or ignores a filter fails it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkStoredData } from "../../src/conformance/stored-data.ts";
import { loadDocument } from "../../src/openapi/document.ts";
import type { ResourceStore } from "../../src/store/rows.ts";
import { AUTH, createTestApp, type TestApp } from "../helpers/app.ts";
import { DATA, storeEngines } from "../helpers/stores.ts";

const document = loadDocument();
const SEEDS = [20261128, 7, 42];

const callOf = (test: TestApp) => async (method: string, target: string, body?: string) => {
  const answer = await test.app.inject({
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

describe.each(storeEngines)("stored data as the document declares it: $name", (engine) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp(engine);
  });
  afterAll(async () => {
    await test?.close();
  });

  it.each(SEEDS)(
    "when every member of every declared table is created, patched and filtered (seed %s), then each comes back as sent",
    async (seed) => {
      expect(await checkStoredData(document, DATA, callOf(test), seed)).toEqual([]);
    },
  );

  it("when the store drops a member of a create, then the check names it", async () => {
    const plants = test.db.store.resources.plants as unknown as ResourceStore;
    const create = plants.create;
    plants.create = ({ tag: _dropped, ...row }) => create(row);
    try {
      const findings = await checkStoredData(document, DATA, callOf(test), SEEDS[0] ?? 0);
      expect(findings).toContainEqual(
        expect.stringMatching(/plants\.tag came back as null, not as sent/),
      );
    } finally {
      plants.create = create;
    }
  });

  it("when the store drops a member of a patch, then the check names it", async () => {
    const plants = test.db.store.resources.plants as unknown as ResourceStore;
    const update = plants.update;
    plants.update = (key, patch) => {
      const { name: _dropped, ...rest } = patch as Record<string, unknown>;
      return update(key, rest);
    };
    try {
      const findings = await checkStoredData(document, DATA, callOf(test), SEEDS[0] ?? 0);
      expect(findings).toContainEqual(
        expect.stringMatching(/after updatePlant, plants\.name came back/),
      );
    } finally {
      plants.update = update;
    }
  });
});
