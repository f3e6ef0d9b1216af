// The managed token format: "ps_", 43 base62 characters of 32 random bytes (256 bits), and a
// 6-character base62 CRC32 of what precedes it. The prefix lets secret scanners find a leaked
// token; the checksum lets the server refuse a mistyped one before any lookup.
import { hash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

export const TOKEN_PREFIX = "ps_";
const SECRET_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
// ps_, then SECRET_LENGTH + CHECKSUM_LENGTH base62 characters (a literal, so test/unit/regex-safety
// can check it).
const SHAPE = /^ps_[0-9A-Za-z]{49}$/;

function base62(bytes: Buffer, width: number): string {
  let value = BigInt(`0x${bytes.toString("hex") || "0"}`);
  let text = "";
  while (value > 0n) {
    text = ALPHABET[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text.padStart(width, "0");
}

const checksum = (body: string): string => {
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return base62(crc, CHECKSUM_LENGTH);
};

export function generateToken(): string {
  const body = TOKEN_PREFIX + base62(randomBytes(32), SECRET_LENGTH);
  return body + checksum(body);
}

/** Shape and checksum only: true says the token was not mistyped, not that it is valid. */
export function hasValidChecksum(token: string): boolean {
  if (!SHAPE.test(token)) return false;
  const body = token.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === token.slice(-CHECKSUM_LENGTH);
}

/** What the database keeps: SHA-256, fit for high-entropy random tokens (no salt or stretching needed). */
export const hashToken = (token: string): string => hash("sha256", token, "hex");

/** `tok_` and 11 base62 characters (64 random bits): short enough to type, never the secret. */
export const newTokenId = (): string => `tok_${base62(randomBytes(8), 11)}`;
