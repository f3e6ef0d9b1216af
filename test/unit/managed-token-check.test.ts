// A managed token's check (src/auth/managed-tokens.ts) on a store double: the whole outcome of
// each case, whose reason goes to the log and the metrics and which the suites through the app
// read only as a status.
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateToken, hashToken } from "../../src/auth/managed-token.ts";
import { type ManagedTokens, openManagedTokens } from "../../src/auth/managed-tokens.ts";
import type { TokenRecord, TokenStore } from "../../src/store/tokens.ts";

const quiet = { info: () => undefined, warn: () => undefined };

/** Managed tokens over a store that holds `rows`, or whose lookups fail when `failing`. */
async function over(rows: TokenRecord[], failing = false): Promise<ManagedTokens> {
  const store = {
    hasAny: async () => rows.length > 0,
    findByHashes: async (hashes: readonly string[]) => {
      if (failing) throw new Error("the table is gone");
      return rows.filter((row) => hashes.includes(row.hash));
    },
    recordLastUsed: async () => undefined,
    purge: async () => 0,
  } as unknown as TokenStore;
  return openManagedTokens(store, { log: quiet, retentionMs: 0 });
}

const row = (token: string, changes: Partial<TokenRecord> = {}): TokenRecord => ({
  id: "tok_abc",
  name: "ci",
  hash: hashToken(token),
  scopes: ["plants:read"],
  createdAt: new Date(0),
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
  ...changes,
});

let open: ManagedTokens | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await open?.close();
  open = undefined;
});

describe("managed token check", () => {
  it("when a known usable token is presented, then its caller is its id, with its scopes", async () => {
    const token = generateToken();
    open = await over([row(token)]);
    expect(await open.check(token)).toEqual({
      ok: true,
      principal: {
        token: { kind: "managed", id: "tok_abc", name: "ci" },
        scopes: ["plants:read"],
        limitKey: "managed:tok_abc",
      },
    });
  });

  it("when a token's checksum does not match, then it is refused for that before any lookup", async () => {
    open = await over([], true);
    const token = generateToken();
    const mistyped = `${token.slice(0, 10)}${token[10] === "a" ? "b" : "a"}${token.slice(11)}`;
    expect(await open.check(mistyped)).toEqual({
      ok: false,
      kind: "invalid_token",
      reason: "bad_checksum",
      description: "the token's checksum does not match: it was mistyped or cut short",
    });
  });

  it("when the store cannot be read, then the token is unavailable (503), not unknown", async () => {
    open = await over([], true);
    expect(await open.check(generateToken())).toEqual({
      ok: false,
      kind: "unavailable",
      reason: "token_store_unavailable",
      description: "the token could not be checked; retry shortly",
    });
  });

  it("when a token is presented at the very instant it expires, then it is expired", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(5_000_000);
    const token = generateToken();
    open = await over([row(token, { expiresAt: new Date(5_000_000) })]);
    expect(await open.check(token)).toEqual({
      ok: false,
      kind: "invalid_token",
      reason: "expired",
      description: "the token has expired",
      token: { kind: "managed", id: "tok_abc", name: "ci" },
    });
  });
});
