import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  generateToken,
  hashToken,
  hasValidChecksum,
  newTokenId,
  TOKEN_PREFIX,
} from "../../src/auth/managed-token.ts";

describe("managed token format", () => {
  it("when tokens are generated, then each is ps_, 43 base62 characters and a 6-character checksum, all different", () => {
    const tokens = Array.from({ length: 200 }, generateToken);
    for (const token of tokens) {
      expect(token).toMatch(/^ps_[0-9A-Za-z]{49}$/);
      expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
      expect(hasValidChecksum(token)).toBe(true);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
    // 43 base62 characters hold 256 bits: their first characters vary, not just the last.
    expect(new Set(tokens.map((t) => t.slice(3, 5))).size).toBeGreaterThan(100);
  });

  it("when any one character is mistyped, then the checksum refuses it", () => {
    const token = generateToken();
    for (let i = 3; i < token.length; i++) {
      const wrong = token[i] === "a" ? "b" : "a";
      expect(hasValidChecksum(token.slice(0, i) + wrong + token.slice(i + 1)), `at ${i}`).toBe(
        false,
      );
    }
  });

  it.each([
    ["cut short", (t: string) => t.slice(0, -1)],
    ["with a character added", (t: string) => `${t}0`],
    [
      "with two characters swapped",
      (t: string) => `${t.slice(0, 10)}${t[11]}${t[10]}${t.slice(12)}`,
    ],
    ["with another prefix", (t: string) => `ghp_${t.slice(3)}`],
    ["with a non-base62 character", (t: string) => `${t.slice(0, 20)}-${t.slice(21)}`],
  ])("when a token is %s, then the checksum refuses it", (_what, change) => {
    const token = generateToken();
    const changed = change(token);
    if (changed !== token) expect(hasValidChecksum(changed)).toBe(false);
  });

  it("when a token is hashed, then it is its SHA-256 in hex", () => {
    const token = generateToken();
    expect(hashToken(token)).toBe(createHash("sha256").update(token).digest("hex"));
  });

  it("when ids are made, then they are tok_ and 11 base62 characters", () => {
    expect(newTokenId()).toMatch(/^tok_[0-9A-Za-z]{11}$/);
  });

  it("when a token's last 6 characters are checked, then they are the base62 CRC32 of what precedes them", () => {
    const token = generateToken();
    expect(token.slice(-6)).toBe(checksumOf(token.slice(0, -6)));
  });

  it.each([
    ["a secret too short", `${TOKEN_PREFIX}${"a".repeat(42)}`],
    ["a secret too long", `${TOKEN_PREFIX}${"a".repeat(44)}`],
    ["another prefix", `gh_${"a".repeat(43)}`],
    ["a non-base62 character", `${TOKEN_PREFIX}${"a".repeat(42)}-`],
  ])("when a token has %s but a checksum that fits it, then it is refused", (_what, body) => {
    expect(hasValidChecksum(body + checksumOf(body))).toBe(false);
  });
});

/** The format's checksum, computed here apart from the module: CRC32 in 6 base62 digits. */
function checksumOf(body: string): string {
  const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let value = crc32(body);
  let text = "";
  for (let i = 0; i < 6; i++) {
    text = digits[value % 62] + text;
    value = Math.floor(value / 62);
  }
  return text;
}
