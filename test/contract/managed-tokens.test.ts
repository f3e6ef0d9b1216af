// Managed API tokens through the app: accepted at once, refused when mistyped, revoked or
// expired, scopes enforced before the body is read, and failures logged without the token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken, type TokenRequest } from "../../src/auth/issue-token.ts";
import {
  createTestApp,
  expectError,
  JSON_TYPE,
  plantJson,
  postPlant,
  type TestApp,
  uniqueId,
  useTestApp,
} from "../helpers/app.ts";
import { waitUntilAsync } from "../helpers/auth.ts";
import { storeEngines } from "../helpers/stores.ts";

describe.each(storeEngines)("managed API tokens ($name)", (engine) => {
  const app = useTestApp(engine);

  const issue = async (request: Partial<TokenRequest> = {}) =>
    issueToken(app().db.store.tokens, { name: `t-${uniqueId()}`, ...request });
  const postWith = (token: string, payload: string, type: Record<string, string> = JSON_TYPE) =>
    postPlant(app().app, payload, { ...type, authorization: `Bearer ${token}` });

  it("when a token has just been created, then it creates a plant at once", async () => {
    const { token } = await issue();
    const id = uniqueId();
    const res = await postWith(token, plantJson(id, "Fresh"));
    expect(res.statusCode, res.body).toBe(200);
    expect(await app().db.store.resources.plants.get(id)).toStrictEqual({ id, name: "Fresh" });
  });

  it("when one character of a token is mistyped, then 401 names the checksum and not the token", async () => {
    const { token } = await issue();
    const typo = `${token.slice(0, 10)}${token[10] === "x" ? "y" : "x"}${token.slice(11)}`;
    const id = uniqueId();
    const res = await postWith(typo, plantJson(id, "x"));
    expectError(res, 401, /checksum/);
    expect(res.headers["www-authenticate"]).toMatch(
      /^Bearer realm="plantstore", error="invalid_token", error_description="[^"]*checksum[^"]*"$/,
    );
    expect(JSON.stringify(res.headers) + res.body).not.toContain(typo.slice(3, 20));
    expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
  });

  it("when a well-formed token was never issued, then 401 invalid_token", async () => {
    const { generateToken } = await import("../../src/auth/managed-token.ts");
    expectError(await postWith(generateToken(), plantJson(uniqueId(), "x")), 401, /not valid/);
  });

  it("when a token is revoked while the app runs, then it is refused within seconds and nothing is stored", async () => {
    const { token, record } = await issue();
    expect((await postWith(token, plantJson(uniqueId(), "before"))).statusCode).toBe(200);
    await app().db.store.tokens.revoke(record.id, new Date());
    await waitUntilAsync(
      async () => (await postWith(token, plantJson(uniqueId(), "during"))).statusCode === 401,
      "the revoked token is refused",
    );
    const id = uniqueId();
    expectError(await postWith(token, plantJson(id, "after")), 401, /revoked/);
    expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
  });

  it("when a token expires, then it is refused as expired", async () => {
    const { token } = await issue({ expiresInMs: 300 });
    await waitUntilAsync(
      async () => (await postWith(token, plantJson(uniqueId(), "x"))).statusCode === 401,
      "the expired token is refused",
    );
    const res = await postWith(token, plantJson(uniqueId(), "x"));
    expectError(res, 401, /expired/);
    expect(res.headers["www-authenticate"]).toContain('error="invalid_token"');
  });

  it("when a token carries scopes without plants:write, then 403 insufficient_scope before the body is read", async () => {
    const { token } = await issue({ scopes: ["plants:read"] });
    for (const [payload, type] of [
      [plantJson(uniqueId(), "x"), JSON_TYPE],
      ["{not json", JSON_TYPE],
      ["hello", { "content-type": "text/plain" }],
    ] as const) {
      const res = await postWith(token, payload, type);
      expectError(res, 403, /plants:write/);
      expect(res.headers["www-authenticate"]).toBe(
        'Bearer realm="plantstore", error="insufficient_scope", error_description="the token lacks the scope plants:write that this operation needs", scope="plants:write"',
      );
    }
  });

  it("when a token carries plants:write among its scopes, then it creates a plant", async () => {
    const { token } = await issue({ scopes: ["plants:read", "plants:write"] });
    const id = uniqueId();
    expect((await postWith(token, plantJson(id, "Scoped"))).statusCode).toBe(200);
    expect(await app().db.store.resources.plants.get(id)).toStrictEqual({ id, name: "Scoped" });
  });
});

describe.each(storeEngines)("managed token bookkeeping ($name)", (engine) => {
  let test: TestApp;
  const logLines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    test = await createTestApp(engine, logLines);
  });
  afterAll(async () => {
    await test?.close();
  });

  it("when a managed token fails, then the request's one log line names the reason and the token's id and name, never the token", async () => {
    const { token, record } = await issueToken(test.db.store.tokens, {
      name: `logged-${uniqueId()}`,
      scopes: ["plants:read"],
    });
    const res = await postPlant(test.app, plantJson(uniqueId(), "x"), {
      authorization: `Bearer ${token}`,
    });
    expect(res.statusCode).toBe(403);
    const line = logLines.find((entry) => entry["status"] === 403);
    expect(line).toMatchObject({
      msg: "request completed",
      auth: {
        failure: "insufficient_scope",
        reason: "insufficient_scope",
        token: { kind: "managed", id: record.id, name: record.name },
      },
    });
    expect(JSON.stringify(logLines)).not.toContain(token);
    expect(JSON.stringify(logLines)).not.toContain(record.hash);
  });

  it("when a token is used many times, then its last use is written once, coalesced, when the app closes", async () => {
    const { token, record } = await issueToken(test.db.store.tokens, {
      name: `used-${uniqueId()}`,
    });
    const before = Date.now();
    for (let i = 0; i < 10; i++) {
      const res = await postPlant(test.app, plantJson(uniqueId(), "x"), {
        authorization: `Bearer ${token}`,
      });
      expect(res.statusCode).toBe(200);
    }
    await test.app.close();
    const stored = (await test.db.store.tokens.list()).find((t) => t.id === record.id);
    expect(stored?.lastUsedAt?.getTime()).toBeGreaterThanOrEqual(before - 1);
  });
});
