// When each managed token was last used: noted in memory on every accepted request, and
// written in one batch by flush() (every few seconds, and at close), never once per request.
import type { TokenStore } from "../store/tokens.ts";
import type { AuthLog } from "./outcome.ts";

export interface LastUses {
  note(id: string, at: Date): void;
  flush(): Promise<void>;
}

export function createLastUses(store: TokenStore, log: AuthLog): LastUses {
  let uses = new Map<string, Date>();
  return {
    note: (id, at) => void uses.set(id, at),
    async flush() {
      if (uses.size === 0) return;
      const batch = uses;
      uses = new Map();
      try {
        await store.recordLastUsed(batch);
      } catch (error) {
        // Keep them for the next flush, unless a newer use has been noted meanwhile.
        for (const [id, at] of batch) if (!uses.has(id)) uses.set(id, at);
        log.warn({ reason: String(error) }, "managed tokens: cannot record last use; will retry");
      }
    },
  };
}
