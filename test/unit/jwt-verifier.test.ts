// The JWT verifier (src/auth/jwt.ts) and its key sources (src/auth/jwt-keys.ts) called directly:
// the whole outcome of each token (who, which rate-limit key, which scopes, which refusal), which
// the app-level suite (test/contract/jwt.test.ts) sees only as a status and a message.
import { createHash, generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type JWTPayload, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createJwtVerifier } from "../../src/auth/jwt.ts";
import type { AuthLog } from "../../src/auth/outcome.ts";
import {
  AUDIENCE,
  hmacKey,
  ISSUER,
  jwks,
  jwtConfig,
  keyFolder,
  type SigningKey,
  signingKey,
  signJwt,
} from "../helpers/jwt.ts";

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
afterEach(() => {
  vi.useRealTimers();
});

/** A log that keeps what it is told. */
function recordingLog() {
  const lines: { level: "info" | "warn"; fields: unknown; message: string }[] = [];
  const log: AuthLog = {
    info: (fields: unknown, message?: string) =>
      lines.push({ level: "info", fields, message: `${message}` }),
    warn: (fields: unknown, message?: string) =>
      lines.push({ level: "warn", fields, message: `${message}` }),
  } as AuthLog;
  return { log, lines };
}

const SECRET = "a-shared-secret-of-at-least-32-bytes!";
const hs = () =>
  createJwtVerifier(jwtConfig({ kind: "hs256-secret", secret: SECRET }), recordingLog().log);
const signHs = (claims: Parameters<typeof signJwt>[1] = {}) => signJwt(hmacKey(SECRET), claims);
/** An HS256 token of exactly these claims (signJwt always adds a subject and a valid iat). */
const signRaw = (payload: Record<string, unknown>) =>
  new SignJWT({
    iss: ISSUER,
    aud: AUDIENCE,
    exp: Math.floor(Date.now() / 1000) + 300,
    ...payload,
  } as JWTPayload)
    .setProtectedHeader({ alg: "HS256" })
    .sign(new TextEncoder().encode(SECRET));

describe("JWT verifier outcomes", () => {
  it("when a token has a subject and an id, then the caller is its subject and both are its identity, with full access", async () => {
    const outcome = await hs()(await signHs({ extra: { jti: "id-1" } }));
    expect(outcome).toEqual({
      ok: true,
      principal: {
        token: { kind: "jwt", subject: "user-42", jwtId: "id-1" },
        scopes: undefined,
        limitKey: "jwt:user-42",
      },
    });
  });

  it("when a token has no subject, then the token itself (hashed) is the caller", async () => {
    const token = await signRaw({});
    const outcome = await hs()(token);
    const hashed = createHash("sha256").update(token).digest("base64url");
    expect(outcome).toEqual({
      ok: true,
      principal: { token: { kind: "jwt" }, scopes: undefined, limitKey: `jwt-token:${hashed}` },
    });
  });

  it.each([[{ sub: 42 }], [{ sub: 42, jti: 7 }]])(
    "when a token's sub or jti is not text (%j), then it names no one, and the token itself is the caller",
    async (claims) => {
      const token = await signRaw(claims);
      const hashed = createHash("sha256").update(token).digest("base64url");
      expect(await hs()(token)).toStrictEqual({
        ok: true,
        principal: { token: { kind: "jwt" }, scopes: undefined, limitKey: `jwt-token:${hashed}` },
      });
    },
  );

  it.each([
    ["scope", " plants:read  plants:write ", ["plants:read", "plants:write"]],
    ["scp", ["plants:write"], ["plants:write"]],
    ["scope", "", []],
  ])("when a token's %s claim is %j, then its scopes are %j", async (claim, value, scopes) => {
    const outcome = await hs()(await signHs({ extra: { [claim]: value } }));
    expect(outcome.ok && outcome.principal.scopes).toEqual(scopes);
  });

  it.each([[42], [["plants:write", 7]]])(
    "when a token's scope claim is %j, then it is refused as malformed, naming its subject",
    async (value) => {
      const outcome = await hs()(await signHs({ extra: { scope: value } }));
      expect(outcome).toEqual({
        ok: false,
        kind: "invalid_token",
        reason: "malformed_scope",
        description: "the token's scope claim is not valid",
        token: { kind: "jwt", subject: "user-42", jwtId: expect.any(String) },
      });
    },
  );

  it.each<[string, Parameters<typeof signJwt>[1], string, string]>([
    ["expired", { expiresIn: -120 }, "expired", "the token has expired"],
    ["not valid yet", { notBefore: 600 }, "not_yet_valid", "the token is not valid yet (nbf)"],
    [
      "from another issuer",
      { iss: "https://evil.example/" },
      "wrong_issuer",
      "the token's issuer is not accepted",
    ],
    [
      "for another audience",
      { aud: "someone-else" },
      "wrong_audience",
      "the token's audience is not accepted",
    ],
    ["without an expiry", { expiresIn: null }, "no_expiry", "the token must have an expiry (exp)"],
  ])(
    "when a token is %s, then the refusal says so and names its subject",
    async (_what, claims, reason, description) => {
      const outcome = await hs()(
        await signHs({ ...claims, extra: { jti: "id-2", ...claims?.extra } }),
      );
      expect(outcome).toEqual({
        ok: false,
        kind: "invalid_token",
        reason,
        description,
        token: { kind: "jwt", subject: "user-42", jwtId: "id-2" },
      });
    },
  );

  it("when a token's iat is not a number, then it is refused for that claim, naming its subject", async () => {
    const token = await signRaw({ sub: "user-42", iat: "yesterday" });
    expect(await hs()(token)).toEqual({
      ok: false,
      kind: "invalid_token",
      reason: "bad_claim",
      description: "the token's iat claim is not valid",
      token: { kind: "jwt", subject: "user-42" },
    });
  });

  it("when a token is signed with another secret, then it is refused for its signature, naming no one", async () => {
    const outcome = await hs()(await signJwt(hmacKey("another-secret-of-at-least-32-bytes!!")));
    expect(outcome).toEqual({
      ok: false,
      kind: "invalid_token",
      reason: "bad_signature",
      description: "the token's signature is not valid",
    });
  });

  it("when a token is not a JWT at all, then it is refused as malformed", async () => {
    expect(await hs()("not.a.jwt")).toEqual({
      ok: false,
      kind: "invalid_token",
      reason: "malformed",
      description: "the token is not a well-formed JWT",
    });
  });

  it("when a token's algorithm is not configured, then it is refused for the algorithm", async () => {
    const verify = createJwtVerifier(
      jwtConfig({ kind: "jwks-file", path: keys.write("es-only.json", jwks(rs, es)) }, ["ES256"]),
      recordingLog().log,
    );
    expect(await verify(await signJwt(rs))).toMatchObject({ reason: "algorithm" });
    expect(await verify(await signJwt(es))).toMatchObject({ ok: true });
  });

  it("when a JWKS holds two keys for a token's key id, then the token is refused as signed with no known key", async () => {
    const verify = createJwtVerifier(
      jwtConfig({ kind: "jwks-file", path: keys.write("twice.json", jwks(rs, stranger)) }),
      recordingLog().log,
    );
    expect(await verify(await signJwt(rs))).toMatchObject({
      reason: "unknown_key",
      description: "the token is not signed with a known key",
    });
  });

  it("when a token's algorithm needs another kind of key than the one configured, then it is refused as not verifiable with the configured keys", async () => {
    // A secret configured, and RS256 allowed beside HS256: an RS256 token meets a secret.
    const verify = createJwtVerifier(
      jwtConfig({ kind: "hs256-secret", secret: SECRET }, ["HS256", "RS256"]),
      recordingLog().log,
    );
    expect(await verify(await signJwt(rs))).toEqual({
      ok: false,
      kind: "invalid_token",
      reason: "unverifiable",
      description: "the token cannot be verified with the configured keys",
    });
  });
});

describe("JWT key sources", () => {
  it.each([
    ["not PEM", "hello"],
    [
      "a certificate request, not a key",
      "-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n",
    ],
  ])(
    "when the public key file holds %s, then start-up stops naming the setting and the file",
    (_what, text) => {
      const path = keys.write("bad.pem", text);
      expect(() =>
        createJwtVerifier(jwtConfig({ kind: "public-key-file", path }), recordingLog().log),
      ).toThrow(`PLANTSTORE_JWT_PUBLIC_KEY_FILE ${path} is not a readable PEM public key: `);
    },
  );

  it("when the public key file holds the public half of a key, then a token that key signed verifies", async () => {
    const path = keys.write("es-public.pem", es.publicPem);
    const verify = createJwtVerifier(
      jwtConfig({ kind: "public-key-file", path }, ["ES256"]),
      recordingLog().log,
    );
    expect(await verify(await signJwt(es))).toMatchObject({ ok: true });
  });

  it("when the public key file holds a private key, then start-up stops saying so", () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }) as string;
    const path = keys.write("private.pem", pem);
    expect(() =>
      createJwtVerifier(jwtConfig({ kind: "public-key-file", path }), recordingLog().log),
    ).toThrow(
      `PLANTSTORE_JWT_PUBLIC_KEY_FILE ${path} is not a readable PEM public key: it holds a private key`,
    );
  });

  it.each([["{}"], ['{"keys":[]}'], ["null"], ['{"keys":{}}']])(
    "when the JWKS file holds %s, then start-up stops: no keys array with a key",
    (text) => {
      const path = keys.write("empty.json", text);
      expect(() =>
        createJwtVerifier(jwtConfig({ kind: "jwks-file", path }), recordingLog().log),
      ).toThrow(
        `PLANTSTORE_JWT_JWKS_FILE ${path} is not a readable JWKS: no "keys" array with a key`,
      );
    },
  );

  it("when the JWKS file changes, then the change is read no sooner than a second after the last look, and said once", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    const path = keys.write("changing.json", jwks(rs));
    const { log, lines } = recordingLog();
    const verify = createJwtVerifier(jwtConfig({ kind: "jwks-file", path }), log);
    const token = await signJwt(rs);
    // Another key under the same key id: a token of the old key fails only once it is read.
    // A byte longer, so the change shows in the size as well as in a fine-grained mtime.
    keys.write("changing.json", `${jwks(stranger)}\n`);
    vi.setSystemTime(start + 999);
    expect(await verify(token)).toMatchObject({ ok: true });
    expect(lines).toEqual([]);
    vi.setSystemTime(start + 1000);
    expect(await verify(token)).toMatchObject({ reason: "bad_signature" });
    expect(lines).toEqual([
      { level: "info", fields: { path }, message: "JWKS file changed; keys reloaded" },
    ]);
    vi.setSystemTime(start + 2500);
    expect(await verify(await signJwt(stranger))).toMatchObject({ ok: true });
    expect(lines).toHaveLength(1);
  });

  it("when the JWKS file gains a key, then a token of its key id is accepted at once; a token that matches two keys makes no early read", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    const path = keys.write("gaining.json", jwks(rs, stranger));
    const verify = createJwtVerifier(jwtConfig({ kind: "jwks-file", path }), recordingLog().log);
    // Two keys under rs-1: refused, and with the clock held the file is not read again...
    keys.write("gaining.json", jwks(rs, es));
    expect(await verify(await signJwt(rs))).toMatchObject({ reason: "unknown_key" });
    // ...until a key id it lacks (es-1) asks for it.
    expect(await verify(await signJwt(es))).toMatchObject({ ok: true });
    expect(await verify(await signJwt(rs))).toMatchObject({ ok: true });
  });

  it("when the JWKS file turns unreadable, then the last good keys stay and it is said once for that version of the file", async () => {
    const path = keys.write("breaking.json", jwks(rs));
    const { log, lines } = recordingLog();
    const verify = createJwtVerifier(jwtConfig({ kind: "jwks-file", path }), log);
    keys.write("breaking.json", "{ half a file");
    // A key id the keys lack makes the file be read again at once.
    for (let i = 0; i < 2; i++) {
      expect(await verify(await signJwt({ ...rs, kid: "nobody" }))).toMatchObject({
        reason: "unknown_key",
      });
    }
    expect(await verify(await signJwt(rs))).toMatchObject({ ok: true });
    expect(lines).toEqual([
      {
        level: "warn",
        fields: { path, reason: expect.stringContaining("JSON") },
        message: "JWKS file unreadable; keeping the last good keys",
      },
    ]);
  });
});

describe("JWT keys from a URL", () => {
  let server: Server;
  let body = "";
  let url = "";
  let fetches = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      fetches++;
      response.writeHead(200, { "content-type": "application/json" }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("when the verifier is made, then the keys are fetched before the first token arrives", async () => {
    body = jwks(rs);
    const before = fetches;
    createJwtVerifier(jwtConfig({ kind: "jwks-url", url }), recordingLog().log);
    await vi.waitUntil(() => fetches > before, { timeout: 10_000 });
  });

  it("when the JWKS holds no key or two keys for a token, then the token is refused (401), not the keys called unavailable", async () => {
    body = jwks(rs, stranger);
    const verify = createJwtVerifier(jwtConfig({ kind: "jwks-url", url }), recordingLog().log);
    expect(await verify(await signJwt(rs))).toMatchObject({
      kind: "invalid_token",
      reason: "unknown_key",
    });
    expect(await verify(await signJwt({ ...es, kid: "nobody" }))).toMatchObject({
      kind: "invalid_token",
      reason: "unknown_key",
    });
  });

  it("when the URL does not answer, then the keys are unavailable (503) and the first fetch's failure is logged", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const gone = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/jwks.json`;
    await new Promise((resolve) => probe.close(resolve));
    const { log, lines } = recordingLog();
    const verify = createJwtVerifier(jwtConfig({ kind: "jwks-url", url: gone }), log);
    expect(await verify(await signJwt(rs))).toEqual({
      ok: false,
      kind: "unavailable",
      reason: "keys_unavailable",
      description: "the keys to check this token could not be fetched; retry shortly",
    });
    expect(lines).toContainEqual({
      level: "warn",
      fields: { url: gone, reason: expect.any(String) },
      message: "JWKS URL not reachable yet",
    });
  });
});
