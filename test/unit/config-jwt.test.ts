import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.ts";

const cwd = "/srv/plantstore";
const SECRET = "0123456789abcdef0123456789abcdef";
const BASE = {
  PLANTSTORE_JWT_ISSUER: "https://idp.example/",
  PLANTSTORE_JWT_AUDIENCE: "plantstore",
};

const jwt = (env: Record<string, string>) => loadConfig({ ...BASE, ...env }, cwd).jwt;
const refusal = (env: Record<string, string>): string => {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain("\n");
    return (error as Error).message;
  }
  throw new Error("the configuration was accepted");
};

describe("JWT configuration", () => {
  it("when no PLANTSTORE_JWT_* is set, then JWTs are off", () => {
    expect(loadConfig({}, cwd).jwt).toBeUndefined();
  });

  it.each([
    [
      { PLANTSTORE_JWT_JWKS_FILE: "keys/jwks.json" },
      { kind: "jwks-file", path: "/srv/plantstore/keys/jwks.json" },
      ["RS256", "ES256", "PS256", "EdDSA"],
    ],
    [
      { PLANTSTORE_JWT_JWKS_URL: "https://idp.example/.well-known/jwks.json" },
      { kind: "jwks-url", url: "https://idp.example/.well-known/jwks.json" },
      ["RS256", "ES256", "PS256", "EdDSA"],
    ],
    [
      { PLANTSTORE_JWT_PUBLIC_KEY_FILE: "/etc/idp.pem" },
      { kind: "public-key-file", path: "/etc/idp.pem" },
      ["RS256", "ES256", "PS256", "EdDSA"],
    ],
    [{ PLANTSTORE_JWT_HS256_SECRET: SECRET }, { kind: "hs256-secret", secret: SECRET }, ["HS256"]],
  ])(
    "when the key source is %j, then it is used with the default algorithms",
    (env, keySource, algorithms) => {
      expect(jwt(env)).toEqual({
        issuer: "https://idp.example/",
        audience: "plantstore",
        keySource,
        algorithms,
        clockSkewSeconds: 30,
      });
    },
  );

  it("when algorithms and clock skew are given, then they are used", () => {
    expect(
      jwt({
        PLANTSTORE_JWT_JWKS_FILE: "/k.json",
        PLANTSTORE_JWT_ALGORITHMS: "ES256, EdDSA",
        PLANTSTORE_JWT_CLOCK_SKEW_S: "0",
      }),
    ).toMatchObject({ algorithms: ["ES256", "EdDSA"], clockSkewSeconds: 0 });
  });

  it("when a JWKS URL is plain http on this machine, then it is allowed", () => {
    expect(jwt({ PLANTSTORE_JWT_JWKS_URL: "http://127.0.0.1:8081/jwks" })?.keySource).toEqual({
      kind: "jwks-url",
      url: "http://127.0.0.1:8081/jwks",
    });
  });

  it.each([
    [{ PLANTSTORE_JWT_JWKS_FILE: "/k.json" }, /^PLANTSTORE_JWT_ISSUER must be set/],
    [
      { PLANTSTORE_JWT_ISSUER: "i", PLANTSTORE_JWT_JWKS_FILE: "/k.json" },
      /^PLANTSTORE_JWT_AUDIENCE must be set/,
    ],
    [{ ...BASE }, /^exactly one of PLANTSTORE_JWT_JWKS_FILE, .* got none$/],
    [
      { ...BASE, PLANTSTORE_JWT_JWKS_FILE: "/k.json", PLANTSTORE_JWT_HS256_SECRET: SECRET },
      /got PLANTSTORE_JWT_JWKS_FILE and PLANTSTORE_JWT_HS256_SECRET$/,
    ],
    [{ ...BASE, PLANTSTORE_JWT_HS256_SECRET: "too-short" }, /at least 32 bytes/],
    [{ ...BASE, PLANTSTORE_JWT_JWKS_URL: "http://idp.example/jwks" }, /must be an https:\/\//],
    [{ ...BASE, PLANTSTORE_JWT_JWKS_URL: "not a url" }, /not a valid URL/],
    [
      { ...BASE, PLANTSTORE_JWT_JWKS_FILE: "/k.json", PLANTSTORE_JWT_ALGORITHMS: "RS256,none" },
      /must not include "none"/,
    ],
    [
      { ...BASE, PLANTSTORE_JWT_JWKS_FILE: "/k.json", PLANTSTORE_JWT_ALGORITHMS: "RS256 HS256" },
      /must not mix HMAC/,
    ],
    [
      { ...BASE, PLANTSTORE_JWT_JWKS_FILE: "/k.json", PLANTSTORE_JWT_ALGORITHMS: "HS256" },
      /must be public-key algorithms/,
    ],
    [
      { ...BASE, PLANTSTORE_JWT_HS256_SECRET: SECRET, PLANTSTORE_JWT_ALGORITHMS: "RS256" },
      /must be HS256, HS384 or HS512/,
    ],
    [
      { ...BASE, PLANTSTORE_JWT_JWKS_FILE: "/k.json", PLANTSTORE_JWT_ALGORITHMS: "RS257" },
      /unknown algorithm "RS257"/,
    ],
    [
      { ...BASE, PLANTSTORE_JWT_JWKS_FILE: "/k.json", PLANTSTORE_JWT_CLOCK_SKEW_S: "-1" },
      /PLANTSTORE_JWT_CLOCK_SKEW_S must be a whole number of seconds from 0 to 600/,
    ],
  ])("when %j is set, then start-up stops with one line: %s", (env, message) => {
    expect(refusal(env)).toMatch(message);
  });

  it.each(["ps_abcdefghijklmnopqrstuvwxyz", "aaaaaaa.bbbbbbbbb.ccccccc"])(
    "when a static token has the shape of a managed token or a JWT (%s), then it is refused",
    (token) => {
      expect(refusal({ PLANTSTORE_TOKENS: token })).toMatch(/looks like a managed token/);
    },
  );
});
