// Keys and JWTs made in the test, as an identity provider would make them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type CryptoKey as JoseKey,
  type JWK,
  type JWTPayload,
  SignJWT,
} from "jose";
import type { JwtConfig, JwtKeySource } from "../../src/config/config.ts";

export const ISSUER = "https://idp.plantstore.test/";
export const AUDIENCE = "plantstore-api";

export interface SigningKey {
  alg: string;
  kid: string;
  privateKey: JoseKey | Uint8Array;
  /** The public half as a JWK (with kid, alg and use), for a JWKS. */
  publicJwk: JWK;
  /** The public half as PEM (SPKI). */
  publicPem: string;
}

export async function signingKey(
  alg: "RS256" | "ES256" | "PS256",
  kid: string,
): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return {
    alg,
    kid,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" },
    publicPem: await exportSPKI(publicKey),
  };
}

export const hmacKey = (
  secret: string,
  kid = "hs",
): Pick<SigningKey, "alg" | "kid" | "privateKey"> => ({
  alg: "HS256",
  kid,
  privateKey: new TextEncoder().encode(secret),
});

export interface Claims {
  iss?: string;
  aud?: string;
  /** Seconds from now; null leaves exp out. */
  expiresIn?: number | null;
  /** Seconds from now. */
  notBefore?: number;
  extra?: JWTPayload;
}

const now = (): number => Math.floor(Date.now() / 1000);

export async function signJwt(
  key: Pick<SigningKey, "alg" | "kid" | "privateKey">,
  claims: Claims = {},
): Promise<string> {
  const jwt = new SignJWT({ sub: "user-42", jti: `jti-${Math.random()}`, ...claims.extra })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "JWT" })
    .setIssuer(claims.iss ?? ISSUER)
    .setAudience(claims.aud ?? AUDIENCE)
    .setIssuedAt();
  const expiresIn = claims.expiresIn === undefined ? 300 : claims.expiresIn;
  if (expiresIn !== null) jwt.setExpirationTime(now() + expiresIn);
  if (claims.notBefore !== undefined) jwt.setNotBefore(now() + claims.notBefore);
  return jwt.sign(key.privateKey);
}

const base64url = (value: unknown): string =>
  Buffer.from(JSON.stringify(value)).toString("base64url");

/** An unsecured JWT (`alg: none`) with valid claims. */
export const unsignedJwt = (): string =>
  `${base64url({ alg: "none", typ: "JWT" })}.${base64url({ iss: ISSUER, aud: AUDIENCE, sub: "x", exp: now() + 300 })}.`;

export function jwtConfig(keySource: JwtKeySource, algorithms?: readonly string[]): JwtConfig {
  const hmac = keySource.kind === "hs256-secret";
  return {
    issuer: ISSUER,
    audience: AUDIENCE,
    keySource,
    algorithms: algorithms ?? (hmac ? ["HS256"] : ["RS256", "ES256", "PS256", "EdDSA"]),
    clockSkewSeconds: 30,
  };
}

/** A folder for key files, removed with `remove()`. */
export function keyFolder(): { write(name: string, text: string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "plantstore-keys-"));
  return {
    write(name, text) {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const jwks = (...keys: SigningKey[]): string =>
  JSON.stringify({ keys: keys.map((k) => k.publicJwk) });
