// Creating a managed token: the secret is generated here, shown to the caller once, and only
// its hash is stored.
import { TokenNameTakenError, type TokenRecord, type TokenStore } from "../store/tokens.ts";
import { generateToken, hashToken, newTokenId } from "./managed-token.ts";

export interface TokenRequest {
  name: string;
  /** How long the token is valid; none means until revoked. */
  expiresInMs?: number;
  /** Scopes the token carries; none means no scope claim (full access). */
  scopes?: readonly string[];
}

export interface IssuedToken {
  /** The secret: shown once, never stored. */
  token: string;
  record: TokenRecord;
}

export async function issueToken(store: TokenStore, request: TokenRequest): Promise<IssuedToken> {
  const token = generateToken();
  const createdAt = new Date();
  const record = await store.create({
    id: newTokenId(),
    name: request.name,
    hash: hashToken(token),
    scopes: request.scopes ?? null,
    createdAt,
    expiresAt:
      request.expiresInMs === undefined
        ? null
        : new Date(createdAt.getTime() + request.expiresInMs),
  });
  return { token, record };
}

export const INITIAL_TOKEN_NAME = "initial";

/** Whether any managed token can still be used (neither revoked nor expired). */
export function hasUsableToken(store: TokenStore, now = new Date()): Promise<boolean> {
  return store.hasUsable(now);
}

/**
 * First start: with an empty token table, creates the managed token "initial" and returns
 * it. Of instances starting together on one database, one creates it (names are unique
 * among unrevoked tokens); the others get undefined, as every later start does.
 */
export async function issueInitialToken(store: TokenStore): Promise<IssuedToken | undefined> {
  if (await store.hasAny()) return undefined;
  try {
    return await issueToken(store, { name: INITIAL_TOKEN_NAME });
  } catch (error) {
    if (error instanceof TokenNameTakenError) return undefined;
    throw error;
  }
}
