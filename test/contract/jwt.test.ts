// JWTs from an identity provider, signed in the test with generated keys, through the app.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthFailure } from "../../src/auth/outcome.ts";
import type { JwtConfig } from "../../src/config/config.ts";
import {
  createTestApp,
  expectError,
  JSON_TYPE,
  plantJson,
  postPlant,
  type TestApp,
  uniqueId,
} from "../helpers/app.ts";
import { waitUntilAsync } from "../helpers/auth.ts";
import {
  type Claims,
  hmacKey,
  jwks,
  jwtConfig,
  keyFolder,
  type SigningKey,
  signingKey,
  signJwt,
  unsignedJwt,
} from "../helpers/jwt.ts";
import { storeEngines } from "../helpers/stores.ts";

const INVALID_TOKEN =
  /^Bearer realm="plantstore", error="invalid_token", error_description="[^"\\]+"$/;

/** An app trusting `jwt`, built before the block's tests and closed after them. */
function useJwtApp(config: () => JwtConfig, engine = storeEngines[0]) {
  let test: TestApp | undefined;
  beforeAll(async () => {
    test = await createTestApp(engine, undefined, { jwt: config() });
  });
  afterAll(async () => {
    await test?.close();
  });
  const post = (authorization: string, id = uniqueId()) => {
    if (test === undefined) throw new Error("the app is built in beforeAll");
    return test.app.inject({
      method: "POST",
      url: "/plants",
      headers: { ...JSON_TYPE, authorization },
      payload: plantJson(id, "Jwt plant"),
    });
  };
  /** Answers 401 with the invalid_token challenge, the Error body, and stores nothing. */
  const expectRefused = async (token: string, message: RegExp) => {
    const id = uniqueId();
    const res = await post(`Bearer ${token}`, id);
    expectError(res, 401, message);
    expect(res.headers["www-authenticate"]).toMatch(INVALID_TOKEN);
    expect(`${res.headers["www-authenticate"]}${res.body}`).not.toContain(token);
    expect(await test?.db.store.resources.plants.get(id)).toBeUndefined();
  };
  return { post, expectRefused, app: () => test };
}

const keys = keyFolder();
afterAll(() => keys.remove());
let rs: SigningKey;
let es: SigningKey;
let stranger: SigningKey;
beforeAll(async () => {
  [rs, es, stranger] = await Promise.all([
    signingKey("RS256", "rs-1"),
    signingKey("ES256", "es-1"),
    signingKey("RS256", "rs-1"),
  ]);
});

describe.each(storeEngines)("JWTs checked against a JWKS file ($name)", (engine) => {
  const jwt = useJwtApp(
    () =>
      jwtConfig({ kind: "jwks-file", path: keys.write(`jwks-${engine.name}.json`, jwks(rs, es)) }),
    engine,
  );

  it.each(["RS256", "ES256"])(
    "when a valid %s token is sent, then the plant is created",
    async (alg) => {
      const id = uniqueId();
      const res = await jwt.post(`Bearer ${await signJwt(alg === "RS256" ? rs : es)}`, id);
      expect(res.statusCode, res.body).toBe(200);
      expect(await jwt.app()?.db.store.resources.plants.get(id)).toStrictEqual({
        id,
        name: "Jwt plant",
      });
    },
  );

  it("when a token expired within the clock skew, then it is still accepted", async () => {
    expect((await jwt.post(`Bearer ${await signJwt(rs, { expiresIn: -10 })}`)).statusCode).toBe(
      200,
    );
  });

  it.each<[string, Claims, RegExp]>([
    ["expired", { expiresIn: -120 }, /has expired/],
    ["not valid before a future nbf", { notBefore: 600 }, /not valid yet/],
    ["for another audience", { aud: "someone-else" }, /audience/],
    ["from another issuer", { iss: "https://evil.example/" }, /issuer/],
    ["without an expiry", { expiresIn: null }, /expiry/],
  ])("when the token is %s, then 401 invalid_token says why", async (_what, claims, message) => {
    await jwt.expectRefused(await signJwt(rs, claims), message);
  });

  it("when the token is unsigned (alg: none), then 401", async () => {
    await jwt.expectRefused(unsignedJwt(), /algorithm|well-formed/);
  });

  it("when the payload is tampered with, then 401 for the signature", async () => {
    const [header, , signature] = (await signJwt(rs)).split(".");
    const forged = Buffer.from(
      JSON.stringify({
        iss: "https://idp.plantstore.test/",
        aud: "plantstore-api",
        sub: "admin",
        exp: 9e9,
      }),
    ).toString("base64url");
    await jwt.expectRefused(`${header}.${forged}.${signature}`, /signature/);
  });

  it("when a token is signed by an unknown key with a known kid, then 401 for the signature", async () => {
    await jwt.expectRefused(await signJwt(stranger), /signature/);
  });

  it("when a token is HS256-signed with the RSA public key as the secret (alg confusion), then 401", async () => {
    const confused = await signJwt(hmacKey(rs.publicPem, "rs-1"));
    await jwt.expectRefused(confused, /algorithm/);
  });

  it("when a token names a key id the JWKS lacks, then 401", async () => {
    await jwt.expectRefused(await signJwt({ ...rs, kid: "nobody" }), /known key/);
  });

  it("when a token carries scopes without plants:write, then 403 insufficient_scope", async () => {
    const res = await jwt.post(`Bearer ${await signJwt(rs, { extra: { scope: "plants:read" } })}`);
    expectError(res, 403, /plants:write/);
    expect(res.headers["www-authenticate"]).toMatch(
      /error="insufficient_scope".*scope="plants:write"$/,
    );
  });

  it.each([
    ["scope", "openid plants:write"],
    ["scp", ["plants:write"]],
    ["scp", "plants:read plants:write"],
  ])("when a token's %s claim holds %j, then it creates a plant", async (claim, value) => {
    const res = await jwt.post(`Bearer ${await signJwt(es, { extra: { [claim]: value } })}`);
    expect(res.statusCode, res.body).toBe(200);
  });

  it("when a token's scope claim is not text or a list of text, then 401", async () => {
    await jwt.expectRefused(await signJwt(rs, { extra: { scope: 42 } }), /scope/);
  });
});

describe("JWT key rotation in a JWKS file", () => {
  let next: SigningKey;
  const jwt = useJwtApp(() =>
    jwtConfig({ kind: "jwks-file", path: keys.write("rotating.json", jwks(rs)) }),
  );
  beforeAll(async () => {
    next = await signingKey("ES256", "es-2");
  });

  it("when the file gains a new key and loses the old one, then the new key works at once and the old one stops", async () => {
    const old = await signJwt(rs);
    expect((await jwt.post(`Bearer ${old}`)).statusCode).toBe(200);
    keys.write("rotating.json", jwks(next));
    const rotated = await jwt.post(`Bearer ${await signJwt(next)}`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    await waitUntilAsync(
      async () => (await jwt.post(`Bearer ${old}`)).statusCode === 401,
      "the removed key is refused",
    );
  });

  it("when the file becomes unreadable, then the last good keys stay in use", async () => {
    keys.write("rotating.json", "{ half a file");
    // A key id the keys lack makes the file be read again at once (else once a second).
    await jwt.expectRefused(await signJwt({ ...rs, kid: "nobody" }), /known key/);
    expect((await jwt.post(`Bearer ${await signJwt(next)}`)).statusCode).toBe(200);
  });
});

describe("JWTs checked with an HS256 secret", () => {
  const secret = "a-shared-secret-of-at-least-32-bytes!";
  const jwt = useJwtApp(() => jwtConfig({ kind: "hs256-secret", secret }));

  it("when a token is signed with the secret, then the plant is created", async () => {
    expect((await jwt.post(`Bearer ${await signJwt(hmacKey(secret))}`)).statusCode).toBe(200);
  });

  it("when a token is signed with another secret, then 401 for the signature", async () => {
    const other = await signJwt(hmacKey("another-secret-of-at-least-32-bytes!!"));
    await jwt.expectRefused(other, /signature/);
  });

  it("when an RS256 token is sent, then 401 for the algorithm", async () => {
    await jwt.expectRefused(await signJwt(rs), /algorithm/);
  });
});

describe("JWTs checked with a PEM public key", () => {
  const jwt = useJwtApp(() =>
    jwtConfig({ kind: "public-key-file", path: keys.write("es.pem", es.publicPem) }),
  );

  it("when a token is signed with the matching private key, then the plant is created", async () => {
    expect((await jwt.post(`Bearer ${await signJwt(es)}`)).statusCode).toBe(200);
  });

  it("when an RS256 token is sent to an EC key, then 401", async () => {
    await jwt.expectRefused(await signJwt(rs), /cannot be verified|algorithm|signature/);
  });
});

describe("JWTs checked against a JWKS URL", () => {
  let server: Server;
  let fetches = 0;
  let url = "";
  beforeAll(async () => {
    server = createServer((_request, response) => {
      fetches++;
      response.writeHead(200, { "content-type": "application/json" }).end(jwks(rs));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const jwt = useJwtApp(() => jwtConfig({ kind: "jwks-url", url }));

  it("when valid tokens are sent, then they are accepted and the keys are fetched once and cached", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await jwt.post(`Bearer ${await signJwt(rs)}`)).statusCode).toBe(200);
    }
    expect(fetches).toBe(1);
  });

  it("when a token is expired, then 401 as with any key source", async () => {
    await jwt.expectRefused(await signJwt(rs, { expiresIn: -120 }), /has expired/);
  });
});

describe("JWTs when the JWKS URL does not answer", () => {
  let url = "";
  beforeAll(async () => {
    // A port that was free a moment ago: nothing listens there now.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/jwks.json`;
    await new Promise((resolve) => probe.close(resolve));
  });
  const jwt = useJwtApp(() => jwtConfig({ kind: "jwks-url", url }));

  it("when a token arrives, then 503 with Retry-After: the token may well be valid", async () => {
    const res = await jwt.post(`Bearer ${await signJwt(rs)}`);
    expectError(res, 503, /keys/);
    expect(res.headers["retry-after"]).toBe("2");
  });
});

describe("JWT refusals in the log and to the metrics seam", () => {
  it("when an expired JWT is refused, then the request's log line and onAuthFailure name the reason and subject, never the token", async () => {
    const logLines: Record<string, unknown>[] = [];
    const failures: AuthFailure[] = [];
    const path = keys.write("logged.json", jwks(rs));
    const test = await createTestApp(undefined, logLines, {
      jwt: jwtConfig({ kind: "jwks-file", path }),
      onAuthFailure: (failure) => failures.push(failure),
    });
    try {
      const token = await signJwt(rs, { expiresIn: -120 });
      const res = await postPlant(test.app, plantJson(uniqueId(), "x"), {
        authorization: `Bearer ${token}`,
      });
      expectError(res, 401, /expired/);
      const auth = {
        failure: "invalid_token",
        reason: "expired",
        token: { kind: "jwt", subject: "user-42" },
      };
      expect(logLines.find((line) => line["status"] === 401)).toMatchObject({ auth });
      expect(failures).toMatchObject([{ kind: "invalid_token", reason: "expired" }]);
      expect(JSON.stringify(logLines)).not.toContain(token.split(".")[2]);
    } finally {
      await test.close();
    }
  });
});

describe("JWTs when none are configured", () => {
  it("when a JWT is sent, then 401 invalid_token", async () => {
    const test = await createTestApp();
    try {
      const res = await test.app.inject({
        method: "POST",
        url: "/plants",
        headers: { ...JSON_TYPE, authorization: `Bearer ${await signJwt(rs)}` },
        payload: plantJson(uniqueId(), "x"),
      });
      expectError(res, 401);
      expect(res.headers["www-authenticate"]).toMatch(INVALID_TOKEN);
    } finally {
      await test.close();
    }
  });
});
