// The first start's token (issueInitialToken, src/auth/issue-token.ts) on a store double: made
// only on an empty table, and a race lost to another instance is no error.
import { describe, expect, it } from "vitest";
import { INITIAL_TOKEN_NAME, issueInitialToken } from "../../src/auth/issue-token.ts";
import { hashToken } from "../../src/auth/managed-token.ts";
import { TokenNameTakenError } from "../../src/store/tokens.ts";
import { storeDouble, tokenRow } from "../helpers/token-store-double.ts";

describe("the initial managed token", () => {
  it("when the token table is empty, then the token named initial is made, with full access and no expiry, and only its hash is stored", async () => {
    const { store } = storeDouble();
    const issued = await issueInitialToken(store);
    expect(issued?.record).toMatchObject({
      name: INITIAL_TOKEN_NAME,
      scopes: null,
      expiresAt: null,
      hash: hashToken(issued?.token ?? ""),
    });
    expect(store.create).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(store.create.mock.calls)).not.toContain(issued?.token);
  });

  it("when the table holds a token, then none is made", async () => {
    const { store } = storeDouble([tokenRow("a")]);
    expect(await issueInitialToken(store)).toBeUndefined();
    expect(store.create).not.toHaveBeenCalled();
  });

  it("when another instance made it first (the name is taken), then this one gets none and no error", async () => {
    const { store } = storeDouble();
    store.create.mockRejectedValueOnce(new TokenNameTakenError(INITIAL_TOKEN_NAME));
    expect(await issueInitialToken(store)).toBeUndefined();
  });

  it("when making it fails otherwise, then the error is thrown", async () => {
    const { store } = storeDouble();
    store.create.mockRejectedValueOnce(new Error("database away"));
    await expect(issueInitialToken(store)).rejects.toThrow("database away");
  });
});
