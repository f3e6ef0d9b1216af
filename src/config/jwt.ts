// The PLANTSTORE_JWT_* settings together: issuer, audience, exactly one key source, the
// accepted algorithms (never "none", never HMAC next to public-key algorithms) and the clock
// skew. Any of them set turns JWTs on.
import { isAbsolute, resolve } from "node:path";
import type { Landed } from "./config.ts";
import { ConfigError } from "./error.ts";
import { nameOf } from "./settings.ts";

/** Where the keys that sign accepted JWTs come from. */
export type JwtKeySource =
  | { kind: "jwks-file"; path: string }
  | { kind: "jwks-url"; url: string }
  | { kind: "public-key-file"; path: string }
  | { kind: "hs256-secret"; secret: string };

export interface JwtConfig {
  issuer: string;
  audience: string;
  keySource: JwtKeySource;
  /** JWS algorithms accepted; never "none", never HMAC mixed with public-key ones. */
  algorithms: readonly string[];
  /** Leeway for exp and nbf, in seconds. */
  clockSkewSeconds: number;
}

const HMAC = ["HS256", "HS384", "HS512"];
const PUBLIC_KEY = [
  ...["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"],
  ...["ES256", "ES384", "ES512", "EdDSA", "Ed25519"],
];
const DEFAULT_PUBLIC_KEY_ALGORITHMS = ["RS256", "ES256", "PS256", "EdDSA"];
const MIN_SECRET_BYTES = 32;

type Given = Landed<"jwt">;

/** The variable a field of the JWT settings is read from, for messages. */
const named = (field: keyof Given): string => nameOf(`jwt.${field}`);

const SOURCES = ["jwksFile", "jwksUrl", "publicKeyFile", "hs256Secret"] as const;

/** The JWT settings checked together; called when any of them is given. */
export function parseJwt(given: Given, cwd: string): JwtConfig {
  const keySource = parseKeySource(given, cwd);
  return {
    issuer: required(given, "issuer"),
    audience: required(given, "audience"),
    keySource,
    algorithms: parseAlgorithms(given.algorithms, keySource),
    clockSkewSeconds: given.clockSkewSeconds,
  };
}

function required(given: Given, field: "issuer" | "audience"): string {
  const value = given[field]?.trim() ?? "";
  if (value === "") {
    throw new ConfigError(`${named(field)} must be set when PLANTSTORE_JWT_* settings are given`);
  }
  return value;
}

function parseKeySource(given: Given, cwd: string): JwtKeySource {
  const set = SOURCES.filter((field) => (given[field]?.trim() ?? "") !== "");
  const [field] = set;
  if (field === undefined || set.length > 1) {
    throw new ConfigError(
      `exactly one of ${SOURCES.map(named).join(", ")} must be set for JWT authentication, got ${set.length === 0 ? "none" : set.map(named).join(" and ")}`,
    );
  }
  const raw = given[field] ?? "";
  const path = (value: string) => (isAbsolute(value) ? value : resolve(cwd, value));
  switch (field) {
    case "jwksFile":
      return { kind: "jwks-file", path: path(raw.trim()) };
    case "publicKeyFile":
      return { kind: "public-key-file", path: path(raw.trim()) };
    case "jwksUrl":
      return { kind: "jwks-url", url: parseJwksUrl(raw.trim()) };
    case "hs256Secret":
      if (Buffer.byteLength(raw, "utf8") < MIN_SECRET_BYTES) {
        throw new ConfigError(
          `${named("hs256Secret")} must be at least ${MIN_SECRET_BYTES} bytes long`,
        );
      }
      return { kind: "hs256-secret", secret: raw };
  }
}

function parseJwksUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${named("jwksUrl")} is not a valid URL, got "${raw}"`);
  }
  // Keys fetched in the clear could be swapped on the way; plain http only on this machine.
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw new ConfigError(
      `${named("jwksUrl")} must be an https:// URL (http:// only for localhost), got "${raw}"`,
    );
  }
  return url.toString();
}

function parseAlgorithms(raw: string | undefined, source: JwtKeySource): readonly string[] {
  const hmacSource = source.kind === "hs256-secret";
  if (raw === undefined || raw.trim() === "") {
    return hmacSource ? ["HS256"] : DEFAULT_PUBLIC_KEY_ALGORITHMS;
  }
  const algorithms = raw.split(/[\s,]+/).filter((alg) => alg !== "");
  for (const alg of algorithms) {
    if (alg.toLowerCase() === "none") {
      throw new ConfigError(`${named("algorithms")} must not include "none" (unsigned tokens)`);
    }
    if (!HMAC.includes(alg) && !PUBLIC_KEY.includes(alg)) {
      throw new ConfigError(
        `${named("algorithms")}: unknown algorithm "${alg}"; use ${[...HMAC, ...PUBLIC_KEY].join(", ")}`,
      );
    }
  }
  const hmac = algorithms.filter((alg) => HMAC.includes(alg));
  if (hmac.length > 0 && hmac.length < algorithms.length) {
    throw new ConfigError(
      `${named("algorithms")} must not mix HMAC (HS*) with public-key algorithms`,
    );
  }
  if (hmacSource !== hmac.length > 0) {
    throw new ConfigError(
      hmacSource
        ? `${named("algorithms")} must be HS256, HS384 or HS512 with ${named("hs256Secret")}`
        : `${named("algorithms")} must be public-key algorithms (RS*, PS*, ES*, EdDSA) with a JWKS or a public key`,
    );
  }
  return algorithms;
}
