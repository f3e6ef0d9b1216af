// The storage interface for managed API tokens. Only a token's SHA-256 is ever stored. The
// server looks tokens up by hash (src/auth/managed-tokens.ts) and never reads the whole table;
// only the CLI lists it.

export interface TokenRecord {
  /** `tok_` and 11 base62 characters; never derived from the secret. */
  id: string;
  name: string;
  /** SHA-256 of the whole token, lower-case hex. */
  hash: string;
  /** Scopes the token carries; null means it carries no scope claim (full access). */
  scopes: readonly string[] | null;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export type NewToken = Omit<TokenRecord, "lastUsedAt" | "revokedAt">;

export type RevokeResult =
  | { kind: "revoked" | "already-revoked"; token: TokenRecord }
  | { kind: "not-found" };

export interface TokenStore {
  /** Throws TokenNameTakenError when a token that is not revoked already has the name. */
  create(token: NewToken): Promise<TokenRecord>;
  /** Every token, revoked and expired ones included, oldest first. For the CLI only. */
  list(): Promise<TokenRecord[]>;
  /** The tokens with these hashes, in no particular order; unknown hashes are left out. */
  findByHashes(hashes: readonly string[]): Promise<TokenRecord[]>;
  /** Whether the table holds any token at all. */
  hasAny(): Promise<boolean>;
  /** Whether any token is neither revoked nor expired at `now`. */
  hasUsable(now: Date): Promise<boolean>;
  /** Deletes the tokens revoked or expired before `before`; returns how many. */
  purge(before: Date): Promise<number>;
  /** Revokes by id, or else the unrevoked token with that name. */
  revoke(idOrName: string, at: Date): Promise<RevokeResult>;
  /** Moves each token's last use forward to the given time (never back). */
  recordLastUsed(uses: ReadonlyMap<string, Date>): Promise<void>;
}

export class TokenNameTakenError extends Error {
  override name = "TokenNameTakenError";
  constructor(tokenName: string) {
    super(`a token named "${tokenName}" already exists; revoke it or choose another name`);
  }
}

/** Scopes as stored: one space-separated text column, NULL for "no scope claim". */
export const scopesToColumn = (scopes: readonly string[] | null): string | null =>
  scopes === null ? null : scopes.join(" ");

export const scopesFromColumn = (column: string | null): readonly string[] | null =>
  column === null ? null : column.split(" ").filter((scope) => scope !== "");

/** A row of api_tokens as a driver returns it; engines differ only in how times come back. */
export interface TokenRow<Time> {
  id: string;
  name: string;
  hash: string;
  scopes: string | null;
  created_at: Time;
  expires_at: Time | null;
  last_used_at: Time | null;
  revoked_at: Time | null;
}

export function recordFromRow<Time>(
  row: TokenRow<Time>,
  toDate: (time: Time) => Date,
): TokenRecord {
  const optional = (time: Time | null): Date | null => (time === null ? null : toDate(time));
  return {
    id: row.id,
    name: row.name,
    hash: row.hash,
    scopes: scopesFromColumn(row.scopes),
    createdAt: toDate(row.created_at),
    expiresAt: optional(row.expires_at),
    lastUsedAt: optional(row.last_used_at),
    revokedAt: optional(row.revoked_at),
  };
}
