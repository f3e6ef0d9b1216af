// GET /plants, GET /plants/{id} and DELETE /plants/{id} through app.inject on both engines:
// what each answers, the ids and query parameters they accept, exact ids in answers, paging,
// scopes, and delete-then-recreate. Every answer is also checked against the YAML.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { issueToken } from "../../src/auth/issue-token.ts";
import { INT64_MAX, INT64_MIN } from "../../src/text/int64.ts";
import {
  AUTH,
  createTestApp,
  expectError,
  plantJson,
  postPlant,
  uniqueId,
  useTestApp,
} from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";

// Percent-encoding is decoded first (%31 is "1", as URLs define), so %20 makes a space: 400.
const NOT_CANONICAL = [
  "1e2",
  "0x10",
  "+1",
  "01",
  "-0",
  "1.0",
  "%201",
  "1%20",

  "abc",
  "-",
  "1_000",
];
const OUT_OF_RANGE = [String(INT64_MAX + 1n), String(INT64_MIN - 1n), "1".repeat(400)];

describe.each(storeEngines)("reading and deleting plants ($name)", (engine) => {
  const app = useTestApp(engine);
  const call = (method: "GET" | "DELETE", url: string, headers: Record<string, string> = AUTH) =>
    app().app.inject({ method, url, headers });

  it("when a stored plant is read, then 200 with its id, name and tag", async () => {
    const id = uniqueId();
    await postPlant(app().app, plantJson(id, "Monstera", "tropical"));
    const res = await call("GET", `/plants/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`{"id":${id},"name":"Monstera","tag":"tropical"}`);
  });

  it.each([INT64_MAX, INT64_MIN, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 0n])(
    "when the plant with id %s is read, then the answer writes the id as its exact literal",
    async (id) => {
      expect((await postPlant(app().app, plantJson(id, `exact ${id}`))).statusCode).toBe(200);
      const res = await call("GET", `/plants/${id}`);
      expect(res.body).toBe(`{"id":${id},"name":"exact ${id}"}`);
      // The page that starts at the id (INT64_MIN has nothing below it to start after).
      const query = id === INT64_MIN ? "limit=1" : `after=${id - 1n}&limit=1`;
      const page = await call("GET", `/plants?${query}`);
      expect(page.body).toBe(`[{"id":${id},"name":"exact ${id}"}]`);
    },
  );

  it("when an id that is not stored is read or deleted, then 404 naming it", async () => {
    const id = uniqueId();
    expectError(await call("GET", `/plants/${id}`), 404, new RegExp(`^no plant with id ${id}$`));
    expectError(await call("DELETE", `/plants/${id}`), 404, new RegExp(`^no plant with id ${id}$`));
  });

  it.each([...NOT_CANONICAL, ...OUT_OF_RANGE])(
    "when the id in the path is %s, then GET and DELETE answer 400 naming the path parameter",
    async (text) => {
      for (const method of ["GET", "DELETE"] as const) {
        expectError(await call(method, `/plants/${text}`), 400, /^path parameter id must be/);
      }
    },
  );

  it("when the id's digits are percent-encoded, then they are decoded as URLs define and the plant is found", async () => {
    const id = uniqueId();
    await postPlant(app().app, plantJson(id, "Encoded"));
    const digits = [...String(id)].map((d) => `%3${d}`).join("");
    expect((await call("GET", `/plants/${digits}`)).json()).toEqual({
      id: Number(id),
      name: "Encoded",
    });
  });

  it("when a stored plant is deleted, then 204 with no body, and it is gone", async () => {
    const id = uniqueId();
    await postPlant(app().app, plantJson(id, "Ivy"));
    const res = await call("DELETE", `/plants/${id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect(res.headers["content-type"]).toBeUndefined();
    expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
    expectError(await call("GET", `/plants/${id}`), 404);
    expectError(await call("DELETE", `/plants/${id}`), 404);
  });

  it("when a deleted id is created again with another name, then it is a fresh 200, not a 409", async () => {
    const id = uniqueId();
    await postPlant(app().app, plantJson(id, "Ivy", "climber"));
    await call("DELETE", `/plants/${id}`);
    const again = await postPlant(app().app, plantJson(id, "Rose"));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ name: "Rose" });
    expect((await call("GET", `/plants/${id}`)).json()).toEqual({ id: Number(id), name: "Rose" });
  });

  it("when a query parameter is sent to GET or DELETE /plants/{id}, then 400 and nothing is deleted", async () => {
    const id = uniqueId();
    await postPlant(app().app, plantJson(id, "Ivy"));
    expectError(await call("DELETE", `/plants/${id}?force=1`), 400, /"force" is not accepted/);
    expectError(await call("GET", `/plants/${id}?x=1`), 400, /this operation takes none/);
    expect(await app().db.store.resources.plants.get(id)).toEqual({ id, name: "Ivy" });
  });
});

describe.each(storeEngines)("listing plants ($name)", (engine) => {
  it("when pages are followed by their Link, then every plant comes once in ascending order and the last page has no next", async () => {
    const t = await createTestApp(engine);
    try {
      const ids = [INT64_MAX, -5n, 3n, INT64_MIN, 2n ** 53n + 1n, 10n, 0n];
      for (const id of ids) await postPlant(t.app, plantJson(id, `p${id}`));
      const seen: string[] = [];
      let next: string | undefined = "/plants?limit=3";
      const links: (string | undefined)[] = [];
      while (next !== undefined) {
        const res = await t.app.inject({ method: "GET", url: next, headers: AUTH });
        expect(res.statusCode).toBe(200);
        // The ids as written, so that none is read through a double.
        seen.push(...[...res.body.matchAll(/"id":(-?\d+)/g)].map((m) => m[1] ?? ""));
        const link = res.headers.link as string | undefined;
        links.push(link);
        next = link === undefined ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
      }
      const sorted = [...ids].sort((a, b) => (a < b ? -1 : 1)).map(String);
      expect(seen).toEqual(sorted);
      // Seven plants by three: full, full, and a last page of one without next.
      expect(links).toEqual([
        `</plants?after=0&limit=3>; rel="next"`,
        `</plants?after=${2n ** 53n + 1n}&limit=3>; rel="next"`,
        undefined,
      ]);
    } finally {
      await t.close();
    }
  });

  it("when the store is empty, then the list is [] without Link; limit defaults to 100", async () => {
    const t = await createTestApp(engine);
    try {
      const empty = await t.app.inject({ method: "GET", url: "/plants", headers: AUTH });
      expect(empty.body).toBe("[]");
      expect(empty.headers.link).toBeUndefined();
      for (let i = 1n; i <= 101n; i++) await postPlant(t.app, plantJson(i, "x"));
      const page = await t.app.inject({ method: "GET", url: "/plants", headers: AUTH });
      expect(page.json()).toHaveLength(100);
      expect(page.headers.link).toBe(`</plants?after=100&limit=100>; rel="next"`);
    } finally {
      await t.close();
    }
  });

  it("when plants hold long names, then a page ends at 1 MiB of names and tags, full, with its next link, and the next page goes on", async () => {
    const t = await createTestApp(engine);
    try {
      // Random, so nothing on the way compresses it: each name 60,000 bytes of UTF-8.
      const name = () => randomBytes(30_000).toString("hex");
      for (let id = 1n; id <= 20n; id++)
        await t.db.store.resources.plants.create({ id, name: name() });
      const first = await t.app.inject({ method: "GET", url: "/plants?limit=1000", headers: AUTH });
      expect(first.statusCode).toBe(200);
      const plants = first.json() as { id: number }[];
      expect(plants).toHaveLength(17);
      expect(first.rawPayload.length).toBeLessThan(1024 * 1024 + 17 * 100);
      expect(first.headers.link).toBe(`</plants?after=17&limit=1000>; rel="next"`);
      const rest = await t.app.inject({
        method: "GET",
        url: "/plants?after=17&limit=1000",
        headers: AUTH,
      });
      expect((rest.json() as { id: number }[]).map((plant) => plant.id)).toEqual([18, 19, 20]);
      expect(rest.headers.link).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it("when PLANTSTORE_PUBLIC_URL is set, then the next link is absolute under it", async () => {
    const t = await createTestApp(engine, undefined, {
      publicUrl: "https://plants.example.com/api",
    });
    try {
      await postPlant(t.app, plantJson(1n, "x"));
      const res = await t.app.inject({ method: "GET", url: "/plants?limit=1", headers: AUTH });
      expect(res.headers.link).toBe(
        `<https://plants.example.com/api/plants?after=1&limit=1>; rel="next"`,
      );
    } finally {
      await t.close();
    }
  });

  const app = useTestApp(engine);
  it.each([
    ["limit=0", /^query parameter limit must be at least 1$/],
    ["limit=1001", /^query parameter limit must be at most 1000$/],
    ["limit=-1", /^query parameter limit must be at least 1$/],
    ["limit=1.5", /^query parameter limit must be a decimal integer/],
    ["limit=abc", /^query parameter limit must be a decimal integer/],
    ["limit=1e2", /^query parameter limit must be a decimal integer/],
    ["limit=", /^query parameter limit must be a decimal integer/],
    ["limit=1&limit=2", /^query parameter limit is given more than once$/],
    ...NOT_CANONICAL.map((text): [string, RegExp] => [
      `after=${text}`,
      /^query parameter after must be a decimal integer/,
    ]),
    ...OUT_OF_RANGE.map((text): [string, RegExp] => [
      `after=${text}`,
      /^query parameter after must be a decimal integer/,
    ]),
    ["offset=10", /^query parameter "offset" is not accepted: this operation takes limit, after$/],
  ])("when GET /plants?%s, then 400 says why", async (query, message) => {
    expectError(
      await app().app.inject({ method: "GET", url: `/plants?${query}`, headers: AUTH }),
      400,
      message,
    );
  });
});

describe.each(storeEngines)("scopes of the plant operations ($name)", (engine) => {
  const app = useTestApp(engine);
  const tokenWith = async (scopes: string[] | undefined) => {
    const { token } = await issueToken(app().db.store.tokens, {
      name: `scoped-${uniqueId()}`,
      ...(scopes === undefined ? {} : { scopes }),
    });
    return { authorization: `Bearer ${token}` };
  };

  it("when tokens carry plants:read, plants:write, both or no scopes, then each operation is allowed or 403 by its x-required-scopes", async () => {
    const id = uniqueId();
    await postPlant(app().app, plantJson(id, "scoped"));
    const read = await tokenWith(["plants:read"]);
    const write = await tokenWith(["plants:write"]);
    const both = await tokenWith(["plants:read", "plants:write"]);
    const all = await tokenWith(undefined);
    const inject = (method: "GET" | "DELETE", url: string, headers: Record<string, string>) =>
      app().app.inject({ method, url, headers });

    expect((await inject("GET", "/plants", read)).statusCode).toBe(200);
    expect((await inject("GET", `/plants/${id}`, read)).statusCode).toBe(200);
    const refused = await inject("DELETE", `/plants/${id}`, read);
    expectError(refused, 403, /plants:write/);
    expect(refused.headers["www-authenticate"]).toContain('scope="plants:write"');
    expectError(await postPlant(app().app, plantJson(uniqueId(), "x"), read), 403);

    expectError(await inject("GET", "/plants", write), 403, /plants:read/);
    expectError(await inject("GET", `/plants/${id}`, write), 403, /plants:read/);
    expect((await postPlant(app().app, plantJson(uniqueId(), "x"), write)).statusCode).toBe(200);

    expect((await inject("GET", `/plants/${id}`, both)).statusCode).toBe(200);
    expect((await inject("GET", `/plants/${id}`, all)).statusCode).toBe(200);
    expect(await app().db.store.resources.plants.get(id)).toEqual({ id, name: "scoped" });
    expect((await inject("DELETE", `/plants/${id}`, all)).statusCode).toBe(204);
  });

  it("when a scoped token asks for a malformed id it may not use, then 403 before the id is read", async () => {
    const read = await tokenWith(["plants:read"]);
    expectError(
      await app().app.inject({ method: "DELETE", url: "/plants/abc", headers: read }),
      403,
    );
  });

  it("when no credentials come with a read or a delete, then 401 before the id is read", async () => {
    for (const method of ["GET", "DELETE"] as const) {
      const res = await app().app.inject({ method, url: "/plants/abc" });
      expectError(res, 401);
    }
    expectError(await app().app.inject({ method: "GET", url: "/plants?limit=0" }), 401);
  });
});
