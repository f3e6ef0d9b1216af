import { describe, expect, it } from "vitest";
import { expectError, plantJson, postPlant, uniqueId, useTestApp } from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";

describe.each(storeEngines)("POST /plants creates plants ($name)", (engine) => {
  const app = useTestApp(engine);

  it("when a valid NewPlant with a tag is sent, then 200 answers the Plant and it is stored", async () => {
    const id = uniqueId();
    const res = await postPlant(app().app, plantJson(id, "Monstera", "tropical"));
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.json()).toStrictEqual({ name: "Monstera", tag: "tropical" });
    expect(await app().db.store.resources.plants.get(id)).toStrictEqual({
      id,
      name: "Monstera",
      tag: "tropical",
    });
  });

  it("when no tag is sent, then the answer has no tag at all (not null, not empty)", async () => {
    const id = uniqueId();
    const res = await postPlant(app().app, plantJson(id, "Cactus"));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"name":"Cactus"}');
    expect(await app().db.store.resources.plants.get(id)).toStrictEqual({ id, name: "Cactus" });
  });

  it("when the tag is an empty string, then it is kept as an empty string", async () => {
    const id = uniqueId();
    const res = await postPlant(app().app, plantJson(id, "Ivy", ""));
    expect(res.json()).toStrictEqual({ name: "Ivy", tag: "" });
    expect(await app().db.store.resources.plants.get(id)).toStrictEqual({
      id,
      name: "Ivy",
      tag: "",
    });
  });

  it("when unknown fields are sent, then they are ignored: not stored, not echoed", async () => {
    const id = uniqueId();
    const res = await postPlant(
      app().app,
      `{"id":${id},"name":"Aloe","color":"green","nested":{"a":[1,2]},"__proto__":{"admin":true},"constructor":{"prototype":{"polluted":1}}}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toStrictEqual({ name: "Aloe" });
    expect(await app().db.store.resources.plants.get(id)).toStrictEqual({ id, name: "Aloe" });
    expect(({} as Record<string, unknown>)["admin"]).toBeUndefined();
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("when an unknown field is nested 20000 deep, then it is ignored like any other", async () => {
    const id = uniqueId();
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    const res = await postPlant(app().app, `{"extra":${deep},"id":${id},"name":"Deep"}`);
    expect(res.statusCode).toBe(200);
    expect(await app().db.store.resources.plants.get(id)).toStrictEqual({ id, name: "Deep" });
  });

  it.each([
    ["emoji and scripts", "Fikus 🌿 ñ 中文 العربية"],
    ["escaped control characters", "tab\there\nnewline \u0001"],
    ["a decomposed accent (not normalised)", "Cafe\u0301"],
    ["HTML, echoed as data", "<script>alert(1)</script>"],
    ["surrounding spaces", "  spaced  "],
  ])("when the name holds %s, then it is answered and stored exactly", async (_what, name) => {
    const id = uniqueId();
    const res = await postPlant(app().app, plantJson(id, name, name));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toStrictEqual({ name, tag: name });
    expect(await app().db.store.resources.plants.get(id)).toStrictEqual({
      id,
      name,
      tag: name,
    });
  });

  it("when the same NewPlant is sent again, then it answers 200 with the same Plant", async () => {
    const id = uniqueId();
    const body = plantJson(id, "Basil", "herb");
    const first = await postPlant(app().app, body);
    const second = await postPlant(app().app, `  ${body.replace(",", " , ")}  `);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toStrictEqual(first.json());
    expect(await app().db.store.resources.plants.get(id)).toStrictEqual({
      id,
      name: "Basil",
      tag: "herb",
    });
  });

  it("when a replay differs only in unknown fields or key order, then it is still a replay", async () => {
    const id = uniqueId();
    await postPlant(app().app, plantJson(id, "Mint", "herb"));
    const res = await postPlant(app().app, `{"tag":"herb","extra":1,"name":"Mint","id":${id}}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toStrictEqual({ name: "Mint", tag: "herb" });
  });

  it.each([
    ["a different name", (id: bigint) => plantJson(id, "Thyme", "herb")],
    ["a different tag", (id: bigint) => plantJson(id, "Sage", "spice")],
    ["no tag where one was stored", (id: bigint) => plantJson(id, "Sage")],
    ["an empty tag where one was stored", (id: bigint) => plantJson(id, "Sage", "")],
  ])(
    "when %s is sent under a stored id, then 409 and the stored plant is unchanged",
    async (_what, body) => {
      const id = uniqueId();
      await postPlant(app().app, plantJson(id, "Sage", "herb"));
      const res = await postPlant(app().app, body(id));
      expectError(res, 409, new RegExp(`id ${id} already exists`));
      expect(await app().db.store.resources.plants.get(id)).toStrictEqual({
        id,
        name: "Sage",
        tag: "herb",
      });
    },
  );

  it("when creates of one id race, then one version wins and the others get 200 or 409 accordingly", async () => {
    const id = uniqueId();
    const names = Array.from({ length: 30 }, (_, i) => `racer ${i % 3}`);
    const responses = await Promise.all(
      names.map((name) => postPlant(app().app, plantJson(id, name))),
    );
    const stored = await app().db.store.resources.plants.get(id);
    expect(stored).toBeDefined();
    for (const [i, res] of responses.entries()) {
      if (names[i] === stored?.name) {
        expect(res.statusCode).toBe(200);
        expect(res.json()).toStrictEqual({ name: stored?.name });
      } else {
        expectError(res, 409);
      }
    }
  });
});
