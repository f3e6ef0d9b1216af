// TokenStore on the SQLite file the plants live in; times are integer milliseconds.
import type { Database } from "better-sqlite3";
import {
  type NewToken,
  type RevokeResult,
  recordFromRow,
  scopesToColumn,
  TokenNameTakenError,
  type TokenRecord,
  type TokenRow,
  type TokenStore,
} from "./tokens.ts";

type Row = TokenRow<number>;

export function createSqliteTokenStore(
  db: Database,
  busyAsUnavailable: <T>(write: () => T) => T,
): TokenStore {
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

  return {
    async create(token: NewToken) {
      try {
        busyAsUnavailable(() =>
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
    async revoke(idOrName, at) {
      const revokeOne = db.transaction((): RevokeResult => {
        const row = byId.get(idOrName) ?? byName.get(idOrName);
        if (row === undefined) return { kind: "not-found" };
        if (row.revoked_at !== null) return { kind: "already-revoked", token: toRecord(row) };
        revoke.run(at.getTime(), row.id);
        return { kind: "revoked", token: { ...toRecord(row), revokedAt: at } };
      });
      return busyAsUnavailable(() => revokeOne.immediate());
    },
    async recordLastUsed(uses) {
      const recordAll = db.transaction(() => {
        for (const [id, at] of uses) used.run(at.getTime(), id, at.getTime());
      });
      busyAsUnavailable(() => recordAll.immediate());
    },
  };
}

const toRecord = (row: Row): TokenRecord => recordFromRow(row, (ms: number) => new Date(ms));
