// Lookups of managed tokens by hash, all through one queue: however many arrive, one query is
// in flight at a time, the waiting hashes go out together in the next one, and lookups of a
// hash already queued share its answer. Unknown tokens therefore cost the store a bounded
// number of queries, whatever their rate.
import { setImmediate as yieldToRequests } from "node:timers/promises";
import { createBatcher } from "../store/batcher.ts";
import type { TokenRecord, TokenStore } from "../store/tokens.ts";

export interface TokenLookup {
  /** The token with this hash, or null when there is none; rejects when the store fails. */
  find(hash: string): Promise<TokenRecord | null>;
  /** Resolves once every lookup asked for so far has settled. */
  drain(): Promise<void>;
}

// Hashes in one query: as many as one SQLite statement takes (src/store/sqlite/tokens.ts).
const MAX_HASHES_PER_QUERY = 500;

export function createTokenLookup(store: TokenStore): TokenLookup {
  const batcher = createBatcher<string, TokenRecord | null>({
    write: async (hashes) => {
      // SQLite answers synchronously: let requests in between one query and the next.
      await yieldToRequests();
      const found = new Map((await store.findByHashes(hashes)).map((row) => [row.hash, row]));
      return hashes.map((hash) => found.get(hash) ?? null);
    },
    maxInFlight: 1,
    maxBatch: MAX_HASHES_PER_QUERY,
  });
  const pending = new Map<string, Promise<TokenRecord | null>>();

  return {
    find(hash) {
      let lookup = pending.get(hash);
      if (lookup === undefined) {
        lookup = batcher.submit(hash).finally(() => pending.delete(hash));
        pending.set(hash, lookup);
      }
      return lookup;
    },
    drain: () => batcher.drain(),
  };
}
