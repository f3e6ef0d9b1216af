// The PLANTSTORE_JWT_* settings together: issuer, audience, exactly one key source, the
// accepted algorithms (never "none", never HMAC next to public-key algorithms) and the clock
// skew. Any of them set turns JWTs on.
import { isAbsolute, resolve } from "node:path";
import { ConfigError } from "./error.ts";
import { SETTINGS, type SettingValues } from "./settings.ts";

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

type Env = Readonly<Record<string, string | undefined>>;

const HMAC = ["HS256", "HS384", "HS512"];
const PUBLIC_KEY = [
  ...["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"],
  ...["ES256", "ES384", "ES512", "EdDSA", "Ed25519"],
];
const DEFAULT_PUBLIC_KEY_ALGORITHMS = ["RS256", "ES256", "PS256", "EdDSA"];
const MIN_SECRET_BYTES = 32;

const SOURCES = [
  "PLANTSTORE_JWT_JWKS_FILE",
  "PLANTSTORE_JWT_JWKS_URL",
  "PLANTSTORE_JWT_PUBLIC_KEY_FILE",
  "PLANTSTORE_JWT_HS256_SECRET",
] as const;

export function parseJwt(s: SettingValues, env: Env, cwd: string): JwtConfig | undefined {
  const given = Object.keys(SETTINGS).some(
    (name) => name.startsWith("PLANTSTORE_JWT_") && env[name] !== undefined,
  );
  if (!given) return undefined;
  const keySource = parseKeySource(s, cwd);
  return {
    issuer: required(s.PLANTSTORE_JWT_ISSUER, "PLANTSTORE_JWT_ISSUER"),
    audience: required(s.PLANTSTORE_JWT_AUDIENCE, "PLANTSTORE_JWT_AUDIENCE"),
    keySource,
    algorithms: parseAlgorithms(s.PLANTSTORE_JWT_ALGORITHMS, keySource),
    clockSkewSeconds: s.PLANTSTORE_JWT_CLOCK_SKEW_S,
  };
}

function required(raw: string | undefined, name: string): string {
  const value = raw?.trim() ?? "";
  if (value === "") {
    throw new ConfigError(`${name} must be set when PLANTSTORE_JWT_* settings are given`);
  }
  return value;
}

function parseKeySource(s: SettingValues, cwd: string): JwtKeySource {
  const set = SOURCES.filter((name) => (s[name]?.trim() ?? "") !== "");
  const [name] = set;
  if (name === undefined || set.length > 1) {
    throw new ConfigError(
      `exactly one of ${SOURCES.join(", ")} must be set for JWT authentication, got ${set.length === 0 ? "none" : set.join(" and ")}`,
    );
  }
  const raw = s[name] ?? "";
  const path = (value: string) => (isAbsolute(value) ? value : resolve(cwd, value));
  switch (name) {
    case "PLANTSTORE_JWT_JWKS_FILE":
      return { kind: "jwks-file", path: path(raw.trim()) };
    case "PLANTSTORE_JWT_PUBLIC_KEY_FILE":
      return { kind: "public-key-file", path: path(raw.trim()) };
    case "PLANTSTORE_JWT_JWKS_URL":
      return { kind: "jwks-url", url: parseJwksUrl(raw.trim()) };
    case "PLANTSTORE_JWT_HS256_SECRET":
      if (Buffer.byteLength(raw, "utf8") < MIN_SECRET_BYTES) {
        throw new ConfigError(
          `PLANTSTORE_JWT_HS256_SECRET must be at least ${MIN_SECRET_BYTES} bytes long`,
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
    throw new ConfigError(`PLANTSTORE_JWT_JWKS_URL is not a valid URL, got "${raw}"`);
  }
  // Keys fetched in the clear could be swapped on the way; plain http only on this machine.
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw new ConfigError(
      `PLANTSTORE_JWT_JWKS_URL must be an https:// URL (http:// only for localhost), got "${raw}"`,
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
      throw new ConfigError('PLANTSTORE_JWT_ALGORITHMS must not include "none" (unsigned tokens)');
    }
    if (!HMAC.includes(alg) && !PUBLIC_KEY.includes(alg)) {
      throw new ConfigError(
        `PLANTSTORE_JWT_ALGORITHMS: unknown algorithm "${alg}"; use ${[...HMAC, ...PUBLIC_KEY].join(", ")}`,
      );
    }
  }
  const hmac = algorithms.filter((alg) => HMAC.includes(alg));
  if (hmac.length > 0 && hmac.length < algorithms.length) {
    throw new ConfigError(
      "PLANTSTORE_JWT_ALGORITHMS must not mix HMAC (HS*) with public-key algorithms",
    );
  }
  if (hmacSource !== hmac.length > 0) {
    throw new ConfigError(
      hmacSource
        ? "PLANTSTORE_JWT_ALGORITHMS must be HS256, HS384 or HS512 with PLANTSTORE_JWT_HS256_SECRET"
        : "PLANTSTORE_JWT_ALGORITHMS must be public-key algorithms (RS*, PS*, ES*, EdDSA) with a JWKS or a public key",
    );
  }
  return algorithms;
}
