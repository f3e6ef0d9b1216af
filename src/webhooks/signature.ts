// The sender's half of Standard Webhooks 1.0: a new endpoint's secret, and the three headers
// that sign one delivery, each signature made by the standard's own library.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

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
  const timestamp = Math.floor(input.timestampSeconds);
  const signatures = input.secrets.map((secret) =>
    new Webhook(secret).sign(input.id, new Date(timestamp * 1000), input.body),
  );
  return {
    "webhook-id": input.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatures.join(" "),
  };
}
