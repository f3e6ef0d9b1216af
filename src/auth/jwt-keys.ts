// The keys that sign accepted JWTs, from the one configured source. A JWKS file is read again
// when it changes (key rotation: checked at most once a second, and at once for an unknown
// key id); a JWKS URL is fetched and cached by jose with a timeout.
import { createPublicKey, type KeyObject } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  type FetchImplementation,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from "jose";
import type { JwtKeySource } from "../config/config.ts";
import { nameOf } from "../config/settings.ts";
import type { AuthLog } from "./outcome.ts";

export type VerificationKey = JWTVerifyGetKey | KeyObject | Uint8Array;

/** The keys could not be had (the JWKS URL did not answer): the token may well be valid. */
export class KeysUnavailableError extends Error {
  override name = "KeysUnavailableError";
}

const FILE_CHECK_INTERVAL_MS = 1000;
// undici's own fetch, given explicitly: the webhook sender loads undici, whose Agent then
// becomes the dispatcher of Node's global fetch too (see src/webhooks/node-fetch-first.ts).
// Loaded when a key is first fetched, as the sender loads it only when it sends.
const undiciFetch: FetchImplementation = async (url, options) => {
  await import("../webhooks/node-fetch-first.ts");
  const { fetch } = await import("undici");
  const headers = Object.fromEntries(options.headers.entries());
  return (await fetch(url, { ...options, headers })) as unknown as Response;
};
const REMOTE = {
  timeoutDuration: 5000,
  cooldownDuration: 30_000,
  cacheMaxAge: 600_000,
  [customFetch]: undiciFetch,
};

export function loadVerificationKey(source: JwtKeySource, log: AuthLog): VerificationKey {
  switch (source.kind) {
    case "hs256-secret":
      return new TextEncoder().encode(source.secret);
    case "public-key-file":
      return readPublicKey(source.path);
    case "jwks-file":
      return watchedJwksFile(source.path, log);
    case "jwks-url":
      return remoteJwks(new URL(source.url), log);
  }
}

function readPublicKey(path: string): KeyObject {
  try {
    const text = readFileSync(path, "utf8");
    // createPublicKey takes a private key too (its public half): a verifier's file should not
    // hold the key that signs.
    if (text.includes("PRIVATE KEY-----")) throw new Error("it holds a private key");
    return createPublicKey(text);
  } catch (error) {
    throw new Error(
      `${nameOf("jwt.publicKeyFile")} ${path} is not a readable PEM public key: ${(error as Error).message}`,
    );
  }
}

function readJwks(path: string): JSONWebKeySet {
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new Error('no "keys" array with a key');
  return parsed as JSONWebKeySet;
}

function watchedJwksFile(path: string, log: AuthLog): JWTVerifyGetKey {
  // What identifies one version of the file; a missing file is a version too.
  const stamp = (): string => {
    try {
      const stat = statSync(path);
      return `${stat.mtimeMs}:${stat.size}`;
    } catch (error) {
      return `unreadable:${(error as NodeJS.ErrnoException).code}`;
    }
  };
  let keys: ReturnType<typeof createLocalJWKSet>;
  let loaded: string;
  try {
    loaded = stamp();
    keys = createLocalJWKSet(readJwks(path));
  } catch (error) {
    throw new Error(
      `${nameOf("jwt.jwksFile")} ${path} is not a readable JWKS: ${(error as Error).message}`,
    );
  }
  let checkedAt = Date.now();
  let broken: string | undefined;

  const reloadIfChanged = (): void => {
    checkedAt = Date.now();
    const now = stamp();
    if (now === loaded || now === broken) return;
    try {
      keys = createLocalJWKSet(readJwks(path));
      loaded = now;
      log.info({ path }, "JWKS file changed; keys reloaded");
    } catch (error) {
      // Mid-write or broken: keep the keys we have, say so once per version of the file.
      broken = now;
      log.warn({ path, reason: String(error) }, "JWKS file unreadable; keeping the last good keys");
    }
  };

  return async (header, token) => {
    if (Date.now() - checkedAt >= FILE_CHECK_INTERVAL_MS) reloadIfChanged();
    try {
      return await keys(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      reloadIfChanged();
      return keys(header, token);
    }
  };
}

function remoteJwks(url: URL, log: AuthLog): JWTVerifyGetKey {
  const keys = createRemoteJWKSet(url, REMOTE);
  // Fetch once now so the first request does not wait; a failure is retried on demand.
  keys.reload().catch((error: unknown) => {
    log.warn({ url: url.toString(), reason: String(error) }, "JWKS URL not reachable yet");
  });
  return async (header, token) => {
    try {
      return await keys(header, token);
    } catch (error) {
      // No or several keys for the token: its fault. Anything else: the keys could not be had.
      if (
        error instanceof errors.JWKSNoMatchingKey ||
        error instanceof errors.JWKSMultipleMatchingKeys
      ) {
        throw error;
      }
      throw new KeysUnavailableError(`cannot fetch ${url}: ${String(error)}`, { cause: error });
    }
  };
}
