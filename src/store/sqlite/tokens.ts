// TokenStore on the SQLite file the plants live in; times are integer milliseconds. Every
// statement runs on the event loop, so none of them reads the whole table at once.

import { setImmediate as yieldToRequests } from "node:timers/promises";
import type { Database, Statement } from "better-sqlite3";
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

type Row = TokenRow<number>;

// Bound parameters in one lookup by hash; SQLite allows far more, this keeps a statement small.
const MAX_HASHES_PER_STATEMENT = 500;
// Rowids one purge statement covers: about a millisecond's scan, then other work may run.
const PURGE_ROWIDS_PER_STATEMENT = 10_000;

export function createSqliteTokenStore(
  db: Database,
  asStoreErrors: <T>(write: () => T) => T,
): TokenStore {
  const { insert, all, byId, byName, revoke, used, any, usable, selectByHashes } =
    tokenStatements(db);
  const purge = createSqlitePurge(db, asStoreErrors);

  return {
    async create(token: NewToken) {
      try {
        asStoreErrors(() =>
          insert.run(
            token.id,
            token.name,
            token.hash,
            scopesToColumn(token.scopes),
            token.createdAt.getTime(),
            token.expiresAt?.getTime() ?? null,
          ),
        );
      } catch (error) {
        if (
          (error as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE" &&
          byName.get(token.name)
        ) {
          throw new TokenNameTakenError(token.name);
        }
        throw error;
      }
      return { ...token, lastUsedAt: null, revokedAt: null };
    },
    async list() {
      return all.all().map(toRecord);
    },
    async findByHashes(hashes) {
      const rows: Row[] = [];
      for (let at = 0; at < hashes.length; at += MAX_HASHES_PER_STATEMENT) {
        const chunk = hashes.slice(at, at + MAX_HASHES_PER_STATEMENT);
        rows.push(...asStoreErrors(() => selectByHashes(chunk.length).all(...chunk)));
      }
      return rows.map(toRecord);
    },
    async hasAny() {
      return asStoreErrors(() => any.get()?.found === 1);
    },
    async hasUsable(now) {
      return asStoreErrors(() => usable.get(now.getTime())?.found === 1);
    },
    purge,
    async revoke(idOrName, at) {
      const revokeOne = db.transaction((): RevokeResult => {
        const row = byId.get(idOrName) ?? byName.get(idOrName);
        if (row === undefined) return { kind: "not-found" };
        if (row.revoked_at !== null) return { kind: "already-revoked", token: toRecord(row) };
        revoke.run(at.getTime(), row.id);
        return { kind: "revoked", token: { ...toRecord(row), revokedAt: at } };
      });
      return asStoreErrors(() => revokeOne.immediate());
    },
    async recordLastUsed(uses) {
      const recordAll = db.transaction(() => {
        for (const [id, at] of uses) used.run(at.getTime(), id, at.getTime());
      });
      asStoreErrors(() => recordAll.immediate());
    },
  };
}

/** The token store's statements, prepared once. */
function tokenStatements(db: Database) {
  const insert = db.prepare<[string, string, string, string | null, number, number | null]>(
    `INSERT INTO api_tokens (id, name, hash, scopes, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const all = db.prepare<[], Row>("SELECT * FROM api_tokens ORDER BY created_at, id");
  const byId = db.prepare<[string], Row>("SELECT * FROM api_tokens WHERE id = ?");
  const byName = db.prepare<[string], Row>(
    "SELECT * FROM api_tokens WHERE name = ? AND revoked_at IS NULL",
  );
  const revoke = db.prepare<[number, string]>(
    "UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
  );
  const used = db.prepare<[number, string, number]>(
    `UPDATE api_tokens SET last_used_at = ?
     WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`,
  );
  const any = db.prepare<[], { found: number }>(
    "SELECT EXISTS (SELECT 1 FROM api_tokens) AS found",
  );
  // The partial index on unrevoked names keeps this to the unrevoked rows.
  const usable = db.prepare<[number], { found: number }>(
    `SELECT EXISTS (SELECT 1 FROM api_tokens
                    WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)) AS found`,
  );
  const selectByHashes = statementsBySize((size) =>
    db.prepare<string[], Row>(
      `SELECT * FROM api_tokens WHERE hash IN (${Array(size).fill("?").join(", ")})`,
    ),
  );
  return { insert, all, byId, byName, revoke, used, any, usable, selectByHashes };
}

const toRecord = (row: Row): TokenRecord => recordFromRow(row, (ms: number) => new Date(ms));

/** One prepared statement per parameter count, made the first time that count is needed. */
function statementsBySize<Params extends unknown[], Result>(
  prepare: (size: number) => Statement<Params, Result>,
): (size: number) => Statement<Params, Result> {
  const prepared = new Map<number, Statement<Params, Result>>();
  return (size) => {
    let statement = prepared.get(size);
    if (statement === undefined) {
      statement = prepare(size);
      prepared.set(size, statement);
    }
    return statement;
  };
}

/**
 * Purge in rowid ranges, yielding between them: neither revoked_at nor expires_at is indexed,
 * so one DELETE would scan the whole table while every request waits.
 */
function createSqlitePurge(
  db: Database,
  asStoreErrors: <T>(write: () => T) => T,
): (before: Date) => Promise<number> {
  // Two subqueries: SQLite answers a lone min() or max() of the rowid from the b-tree's ends.
  const bounds = db.prepare<[], { low: number | null; high: number | null }>(
    "SELECT (SELECT min(rowid) FROM api_tokens) AS low, (SELECT max(rowid) FROM api_tokens) AS high",
  );
  const purgeRange = db.prepare<[number, number, number, number]>(
    `DELETE FROM api_tokens
     WHERE rowid >= ? AND rowid < ? AND (revoked_at < ? OR expires_at < ?)`,
  );
  return async (before) => {
    const { low, high } = asStoreErrors(() => bounds.get()) ?? { low: null, high: null };
    if (low === null || high === null) return 0;
    const cutoff = before.getTime();
    let removed = 0;
    for (let from = low; from <= high; from += PURGE_ROWIDS_PER_STATEMENT) {
      const to = from + PURGE_ROWIDS_PER_STATEMENT;
      removed += asStoreErrors(() => purgeRange.run(from, to, cutoff, cutoff)).changes;
      await yieldToRequests();
    }
    return removed;
  };
}
