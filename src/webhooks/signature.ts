// The sender's half of Standard Webhooks 1.0: a new endpoint's secret, and the three headers
// that sign one delivery. node:crypto does it: the signature is one HMAC-SHA256.
import { createHmac, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";

// A type, not an interface, so that it passes wherever a Record of headers is taken.
export type SignatureHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

/** A new endpoint secret: `whsec_` and 24 random bytes in base64, as the standard writes them. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString("base64")}`;
}

/**
 * The headers of one delivery, signed with every secret given: one `v1,<signature>` entry each,
 * so that during a rotation a receiver holding either the old or the new secret accepts it.
 */
export function signatureHeaders(input: {
  id: string;
  timestampSeconds: number;
  body: string;
  secrets: readonly string[];
}): SignatureHeaders {
  if (input.secrets.length === 0) {
    throw new TypeError("a webhook is signed with at least one secret");
  }
  const timestamp = String(Math.floor(input.timestampSeconds));
  const signed = `${input.id}.${timestamp}.${input.body}`;
  const signatures = input.secrets.map(
    (secret) => `v1,${createHmac("sha256", secretKey(secret)).update(signed).digest("base64")}`,
  );
  return {
    "webhook-id": input.id,
    "webhook-timestamp": timestamp,
    "webhook-signature": signatures.join(" "),
  };
}

/** The HMAC key: the bytes the base64 after `whsec_` stands for. */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0) throw new TypeError("a webhook secret is whsec_ and base64 key bytes");
  return key;
}
