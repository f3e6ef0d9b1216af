// TokenStore on the PostgreSQL pool the plants use (one pool per process), every call under
// the store's deadline: reads bounded in the client, writes in transactions the server bounds.

import {
  type NewToken,
  type RevokeResult,
  recordFromRow,
  scopesToColumn,
  TokenNameTakenError,
  type TokenRecord,
  type TokenRow,
  type TokenStore,
} from "../tokens.ts";
import type { BoundedCalls } from "./deadlines.ts";
import { asStoreError } from "./errors.ts";

type Row = TokenRow<Date>;

const UNIQUE_VIOLATION = "23505";
const PURGE_ROWS_PER_STATEMENT = 10_000;

export function createPostgresTokenStore(calls: BoundedCalls): TokenStore {
  const mapped = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw asStoreError(error);
    }
  };

  return {
    create: (token: NewToken) => mapped(() => insertToken(calls, token)),
    list: () =>
      mapped(async () =>
        (await calls.read((q) => q<Row[]>`SELECT * FROM api_tokens ORDER BY created_at, id`)).map(
          toRecord,
        ),
      ),
    findByHashes: (hashes) =>
      mapped(async () =>
        (
          await calls.read(
            (q) => q<Row[]>`SELECT * FROM api_tokens WHERE hash = ANY(${[...hashes]}::text[])`,
          )
        ).map(toRecord),
      ),
    hasAny: () =>
      mapped(async () => {
        const [row] = await calls.read(
          (q) => q<{ found: boolean }[]>`SELECT EXISTS (SELECT 1 FROM api_tokens) AS found`,
        );
        return row?.found === true;
      }),
    hasUsable: (now) =>
      mapped(async () => {
        // The partial index on unrevoked names keeps this to the unrevoked rows.
        const [row] = await calls.read(
          (q) => q<{ found: boolean }[]>`
            SELECT EXISTS (SELECT 1 FROM api_tokens
                           WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${now}))
                   AS found`,
        );
        return row?.found === true;
      }),
    purge: (before) => mapped(() => purgeTokens(calls, before)),
    revoke: (idOrName, at) => mapped(() => revokeToken(calls, idOrName, at)),
    recordLastUsed: (uses) =>
      mapped(async () => {
        await calls.transaction(async (tx) => {
          for (const [id, at] of uses) {
            await tx`UPDATE api_tokens SET last_used_at = ${at}
                     WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${at})`;
          }
        });
      }),
  };
}

async function insertToken(calls: BoundedCalls, token: NewToken): Promise<TokenRecord> {
  try {
    await calls.transaction(
      (tx) => tx`
      INSERT INTO api_tokens (id, name, hash, scopes, created_at, expires_at)
      VALUES (${token.id}, ${token.name}, ${token.hash}, ${scopesToColumn(token.scopes)},
              ${token.createdAt}, ${token.expiresAt})`,
    );
  } catch (error) {
    const { code, constraint_name } = error as { code?: unknown; constraint_name?: unknown };
    if (code === UNIQUE_VIOLATION && constraint_name === "api_tokens_unrevoked_name") {
      throw new TokenNameTakenError(token.name);
    }
    throw error;
  }
  return { ...token, lastUsedAt: null, revokedAt: null };
}

async function purgeTokens(calls: BoundedCalls, before: Date): Promise<number> {
  // In slices, so a first purge of millions of rows stays within statement_timeout.
  let removed = 0;
  for (;;) {
    const { count } = await calls.transaction(
      (tx) => tx`
        DELETE FROM api_tokens WHERE id IN (
          SELECT id FROM api_tokens WHERE revoked_at < ${before} OR expires_at < ${before}
          LIMIT ${PURGE_ROWS_PER_STATEMENT})`,
    );
    removed += count;
    if (count < PURGE_ROWS_PER_STATEMENT) return removed;
  }
}

function revokeToken(calls: BoundedCalls, idOrName: string, at: Date): Promise<RevokeResult> {
  return calls.transaction(async (tx): Promise<RevokeResult> => {
    const [row] = await tx<Row[]>`
      SELECT * FROM api_tokens
      WHERE id = ${idOrName} OR (name = ${idOrName} AND revoked_at IS NULL)
      ORDER BY (id = ${idOrName}) DESC LIMIT 1 FOR UPDATE`;
    if (row === undefined) return { kind: "not-found" };
    if (row.revoked_at !== null) return { kind: "already-revoked", token: toRecord(row) };
    await tx`UPDATE api_tokens SET revoked_at = ${at} WHERE id = ${row.id}`;
    return { kind: "revoked", token: { ...toRecord(row), revokedAt: at } };
  });
}

const toRecord = (row: Row): TokenRecord => recordFromRow(row, (time: Date) => time);
