// What the server knows about the managed tokens it has seen, by hash: the row, or that there
// is none. Known and unknown tokens are kept apart, each bounded, so a flood of made-up tokens
// cannot push out the real ones.

import { LruMap } from "toad-cache";
import type { TokenRecord } from "../store/tokens.ts";

export interface TokenCache {
  /** The cached answer (null: no such token), noted as used now; undefined if not cached. */
  use(hash: string): TokenRecord | null | undefined;
  /** Caches what the store answered for the hash, keeping the entry's last use and place. */
  remember(hash: string, record: TokenRecord | null): void;
  /**
   * Drops the entries unused since `idleBefore` (Date.now() time) and returns the hashes of
   * the usable tokens left, to be looked up again. Not the others: a revocation or an expiry
   * is final, and a hash nobody has could only become known if its token had been sent
   * before it was created.
   */
  sweep(idleBefore: number): string[];
}

const isUsable = (record: TokenRecord, now: Date): boolean =>
  record.revokedAt === null && (record.expiresAt === null || record.expiresAt > now);

interface Entry {
  record: TokenRecord | null;
  usedAt: number;
}

export function createTokenCache(capacity: number): TokenCache {
  const known = new LruMap<Entry>(capacity);
  const unknown = new LruMap<Entry>(capacity);
  /** Drops the entries unused since `idleBefore`; yields the others. */
  const keep = function* (map: LruMap<Entry>, idleBefore: number) {
    // A copy of the keys: entries are deleted on the way.
    for (const hash of [...(map.keys() as IterableIterator<string>)]) {
      const entry = map.get(hash);
      if (entry === undefined) continue;
      if (entry.usedAt < idleBefore) map.delete(hash);
      else yield [hash, entry] as const;
    }
  };

  return {
    use(hash) {
      const entry = known.get(hash) ?? unknown.get(hash);
      if (entry === undefined) return undefined;
      entry.usedAt = Date.now();
      return entry.record;
    },
    remember(hash, record) {
      const [into, from] = record === null ? [unknown, known] : [known, unknown];
      const entry = into.get(hash);
      if (entry !== undefined) {
        entry.record = record;
        return;
      }
      into.set(hash, { record, usedAt: from.get(hash)?.usedAt ?? Date.now() });
      from.delete(hash);
    },
    sweep(idleBefore) {
      const now = new Date();
      const due: string[] = [];
      for (const [hash, entry] of keep(known, idleBefore)) {
        if (entry.record !== null && isUsable(entry.record, now)) due.push(hash);
      }
      for (const _ of keep(unknown, idleBefore));
      return due;
    },
  };
}
